import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersCollection, getManyRecords, returnAllOrLimit } from '../common';
import { API } from '../../../shared/api';
import type { OperationOption } from '../types';
import { customerStatusOptions } from './fields';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List customers, newest first',
	action: 'Get many customers',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: customerStatusOptions,
			default: 'active',
		},
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.customers);
}
