import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { eventTypeField, getResourceId } from '../common';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';
import { endpointIdLocator } from './fields';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['sendTest'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await webhookEndpoints.sendTest.call(this, endpointId, options.event_type as string);
}
