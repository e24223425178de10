import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId, resourceLocator } from '../common';
import * as webhookDeliveries from '../../../shared/webhookDeliveries';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookDelivery'], operation: ['redeliver'] } },
	[
		resourceLocator({
			displayName: 'Delivery',
			name: 'deliveryId',
			searchListMethod: 'searchWebhookDeliveries',
			description: 'The delivery whose event is sent again, with the same envelope ID',
		}),
	],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const deliveryId = getResourceId.call(this, 'deliveryId', 'Delivery', itemIndex);
	return await webhookDeliveries.redeliver.call(this, deliveryId);
}
