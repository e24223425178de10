import { getManyOperation, isActiveFilter, listRecords } from '../common';
import { API } from '../../../shared/api';

export { records } from './output';

export const { option, properties, execute } = getManyOperation({
	option: {
		name: 'Get Many',
		value: 'getAll',
		description: 'List members, newest first',
		action: 'Get many members',
	},
	filters: [
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
	],
	list: listRecords(API.members),
});
