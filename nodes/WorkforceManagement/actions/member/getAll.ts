import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection, getManyRecords, isActiveFilter, returnAllOrLimit } from '../common';
import { API } from '../../../shared/api';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		isActiveFilter('members'),
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
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.members);
}
