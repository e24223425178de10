import { patchRecord, updateOperation } from '../common';
import { API } from '../../../shared/api';
import {
	clearCustomerFields,
	customerIdLocator,
	customerNameField,
	optionalCustomerFields,
} from './fields';

export { records } from './output';

export const { option, properties, execute } = updateOperation({
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change or clear fields of a customer',
		action: 'Update a customer',
	},
	locator: customerIdLocator,
	fields: [customerNameField, ...optionalCustomerFields],
	clearFields: clearCustomerFields,
	nonEmptyText: { name: 'Name' },
	save: patchRecord(API.customers),
});
