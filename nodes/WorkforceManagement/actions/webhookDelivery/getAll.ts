import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	eventTypeField,
	filtersCollection,
	getListLimit,
	getManyQuery,
	resourceLocator,
	returnAllOrLimit,
} from '../common';
import { webhookDeliveries } from '../../../shared/webhooks';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List recent delivery attempts',
	action: 'Get many webhook deliveries',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		resourceLocator({
			displayName: 'Webhook Endpoint',
			name: 'endpoint_id',
			searchListMethod: 'searchWebhookEndpoints',
			description: 'Return only deliveries to this endpoint',
			required: false,
		}),
		eventTypeField('Return only deliveries of this event type'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Dead', value: 'dead' },
				{ name: 'Delivered', value: 'delivered' },
				{ name: 'Failed', value: 'failed' },
				{ name: 'Pending', value: 'pending' },
				{ name: 'Processing', value: 'processing' },
			],
			default: 'failed',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	const filters = getManyQuery.call(this, itemIndex, { endpoint_id: 'Webhook Endpoint' });
	return await webhookDeliveries.list.call(this, filters, limit);
}
