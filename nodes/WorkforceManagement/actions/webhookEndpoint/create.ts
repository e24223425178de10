import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection, getAdditionalFieldsBody } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import { endpointDescriptionField, eventsField, urlField } from './fields';
import { assertEventList, assertHttpsUrl } from './validation';

const additionalFields = [endpointDescriptionField];

export const option = {
	name: 'Create',
	value: 'create',
	description: 'Register an HTTPS URL to receive events',
	action: 'Create a webhook endpoint',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	{ ...urlField, required: true },
	{ ...eventsField, required: true },
	additionalFieldsCollection(additionalFields),
	{
		displayName: 'Output Signing Secret',
		name: 'outputSecret',
		type: 'boolean',
		default: false,
		description:
			'Whether to output the full signing secret, which the API returns only in this response. Off: only its masked preview is output; use Roll Secret to get a new one later.',
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const url = assertHttpsUrl.call(this, this.getNodeParameter('url', itemIndex), 'URL', itemIndex);
	const events = assertEventList.call(
		this,
		this.getNodeParameter('events', itemIndex),
		'Events',
		itemIndex,
	);
	const endpoint = await webhookEndpoints.create.call(this, {
		url,
		events,
		...getAdditionalFieldsBody.call(this, itemIndex, additionalFields),
	});

	if (!(this.getNodeParameter('outputSecret', itemIndex, false) as boolean)) {
		delete endpoint.secret;
	}
	return endpoint;
}
