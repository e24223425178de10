import { getManyOperation, listRecords } from '../common';
import { API } from '../../../shared/api';
import { customerStatusOptions } from './fields';

export { records } from './output';

export const { option, properties, execute } = getManyOperation({
	option: {
		name: 'Get Many',
		value: 'getAll',
		description: 'List customers, newest first',
		action: 'Get many customers',
	},
	filters: [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: customerStatusOptions,
			default: 'active',
		},
	],
	list: listRecords(API.customers),
});
