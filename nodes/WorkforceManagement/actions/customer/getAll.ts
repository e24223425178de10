import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, getManyRecords, returnAllOrLimit } from '../common';
import { API } from '../../../shared/api';
import { customerStatusOptions } from './fields';

const properties: INodeProperties[] = [
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

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.customers);
}
