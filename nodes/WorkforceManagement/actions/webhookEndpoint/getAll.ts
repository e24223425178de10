import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getListLimit, returnAllOrLimit } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List the webhook endpoints of the key’s mode',
	action: 'Get many webhook endpoints',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = returnAllOrLimit;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await webhookEndpoints.list.call(this, getListLimit.call(this, itemIndex));
}
