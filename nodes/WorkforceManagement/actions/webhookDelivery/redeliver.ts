import { recordOperation, resourceLocator } from '../common';
import { webhookDeliveries } from '../../../shared/webhooks';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Redeliver',
		value: 'redeliver',
		description: 'Queue a fresh delivery of an earlier event',
		action: 'Redeliver a webhook delivery',
	},
	locator: resourceLocator({
		displayName: 'Delivery',
		name: 'deliveryId',
		searchListMethod: 'searchWebhookDeliveries',
		description: 'The delivery whose event is sent again, with the same envelope ID',
	}),
	run: webhookDeliveries.redeliver,
});
