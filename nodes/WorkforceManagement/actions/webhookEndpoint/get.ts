import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import { endpointIdLocator } from './fields';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get a webhook endpoint',
	action: 'Get a webhook endpoint',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [endpointIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	return await webhookEndpoints.get.call(this, endpointId);
}
