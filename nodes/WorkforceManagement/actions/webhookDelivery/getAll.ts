import { eventTypeField, getManyOperation, resourceLocator } from '../common';
import { webhookDeliveries } from '../../../shared/webhooks';

export { records } from './output';

export const { option, properties, execute } = getManyOperation({
	option: {
		name: 'Get Many',
		value: 'getAll',
		description: 'List recent delivery attempts',
		action: 'Get many webhook deliveries',
	},
	filters: [
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
	],
	locatorFilters: { endpoint_id: 'Webhook Endpoint' },
	list: webhookDeliveries.list,
});
