import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getListLimit, returnAllOrLimit } from '../common';
import { SCOPE, workforceApiPaginate } from '../../transport';

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
				displayName: 'Is Active',
				name: 'is_active',
				type: 'boolean',
				default: true,
				description: 'Whether to return only active members (on) or only inactive ones (off)',
			},
			{
				displayName: 'Is Verified',
				name: 'is_verified',
				type: 'boolean',
				default: true,
				description: 'Whether to return only verified members (on) or only unverified ones (off)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Active', value: 'active' },
					{ name: 'Draft', value: 'draft' },
					{ name: 'Inactive', value: 'inactive' },
					{ name: 'Invited', value: 'invited' },
				],
				default: 'active',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return await workforceApiPaginate.call(this, '/members', filters, limit, SCOPE.membersRead);
}
