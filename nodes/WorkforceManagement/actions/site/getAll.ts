import { getManyOperation, isActiveFilter, listRecords, resourceLocator } from '../common';
import { API } from '../../../shared/api';

export { records } from './output';

export const { option, properties, execute } = getManyOperation({
	option: {
		name: 'Get Many',
		value: 'getAll',
		description: 'List sites, newest first',
		action: 'Get many sites',
	},
	filters: [
		resourceLocator({
			displayName: 'Customer',
			name: 'customer_id',
			searchListMethod: 'searchCustomers',
			description: "Return only this customer's sites",
			required: false,
		}),
		isActiveFilter('sites'),
	],
	locatorFilters: { customer_id: 'Customer' },
	list: listRecords(API.sites),
});
