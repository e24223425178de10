import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, getManyRecords, returnAllOrLimit } from '../common';
import { SCOPE } from '../../../shared/transport';
import { customerStatusOptions } from './fields';
import { PATH } from '../paths';

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
	return await getManyRecords.call(this, itemIndex, PATH.customers, SCOPE.customersRead);
}
