import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as create from './create';
import * as deleteEndpoint from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as recoverMissedEvents from './recoverMissedEvents';
import * as rollSecret from './rollSecret';
import * as sendTest from './sendTest';
import * as update from './update';

export const displayName = 'Webhook Endpoint';

export { output } from './output';

export const operations = {
	create,
	delete: deleteEndpoint,
	get,
	getAll,
	recoverMissedEvents,
	rollSecret,
	sendTest,
	update,
} satisfies Record<string, WorkforceOperation>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
		'webhookEndpoint',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Register an HTTPS URL to receive events',
				action: 'Create a webhook endpoint',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an endpoint and its delivery history',
				action: 'Delete a webhook endpoint',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a webhook endpoint',
				action: 'Get a webhook endpoint',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the webhook endpoints of the key’s mode',
				action: 'Get many webhook endpoints',
			},
			{
				name: 'Recover Missed Events',
				value: 'recoverMissedEvents',
				description:
					'Re-enable a trigger endpoint the API disabled and redeliver, once, the events it gave up on',
				action: 'Recover missed events of webhook endpoints',
			},
			{
				name: 'Roll Secret',
				value: 'rollSecret',
				description: 'Replace the signing secret and output the new one',
				action: 'Roll the signing secret of a webhook endpoint',
			},
			{
				name: 'Send Test Event',
				value: 'sendTest',
				description: 'Send one test delivery to the endpoint',
				action: 'Send a test event to a webhook endpoint',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the URL, events, description or enabled state',
				action: 'Update a webhook endpoint',
			},
		],
		'getAll',
	),
	...getAll.description,
	...create.description,
	...get.description,
	...update.description,
	...deleteEndpoint.description,
	...recoverMissedEvents.description,
	...rollSecret.description,
	...sendTest.description,
];
