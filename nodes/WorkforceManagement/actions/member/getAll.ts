import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersCollection, getManyRecords, isActiveFilter, returnAllOrLimit } from '../common';
import { API } from '../../../shared/api';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List members, newest first',
	action: 'Get many members',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.members);
}
