import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getListLimit, returnAllOrLimit } from '../common';
import { SCOPE, workforceApiPaginate } from '../../transport';
import { customerStatusOptions } from './fields';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: customerStatusOptions,
				default: 'active',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return await workforceApiPaginate.call(this, '/customers', filters, limit, SCOPE.customersRead);
}
