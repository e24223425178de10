import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiRead } from '../../../shared/api';
import type { OperationOption } from '../types';
import { customerIdLocator } from './fields';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get a customer',
	action: 'Get a customer',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [customerIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	return await apiRead.call(this, API.customers, { id: customerId });
}
