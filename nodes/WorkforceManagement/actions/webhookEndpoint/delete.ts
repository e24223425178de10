import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import { endpointIdLocator } from './fields';

export const option = {
	name: 'Delete',
	value: 'delete',
	description: 'Delete an endpoint and its delivery history',
	action: 'Delete a webhook endpoint',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [endpointIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	await webhookEndpoints.delete.call(this, endpointId);
	return { deleted: true, id: endpointId };
}
