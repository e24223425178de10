import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId, resourceLocator } from '../common';
import { webhookDeliveries } from '../../../shared/webhooks';
import type { OperationOption } from '../types';

export const option = {
	name: 'Redeliver',
	value: 'redeliver',
	description: 'Queue a fresh delivery of an earlier event',
	action: 'Redeliver a webhook delivery',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [
	resourceLocator({
		displayName: 'Delivery',
		name: 'deliveryId',
		searchListMethod: 'searchWebhookDeliveries',
		description: 'The delivery whose event is sent again, with the same envelope ID',
	}),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const deliveryId = getResourceId.call(this, 'deliveryId', 'Delivery', itemIndex);
	return await webhookDeliveries.redeliver.call(this, deliveryId);
}
