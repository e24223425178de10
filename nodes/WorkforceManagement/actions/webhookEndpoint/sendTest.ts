import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { eventTypeField, getResourceId } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import { endpointIdLocator } from './fields';

export const option = {
	name: 'Send Test Event',
	value: 'sendTest',
	description: 'Send one test delivery to the endpoint',
	action: 'Send a test event to a webhook endpoint',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [
	endpointIdLocator,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			eventTypeField(
				'Event type whose example payload is sent; by default one the endpoint subscribes to',
			),
		],
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await webhookEndpoints.sendTest.call(this, endpointId, options.event_type as string);
}
