import { patchRecord, updateOperation } from '../common';
import { API } from '../../../shared/api';
import {
	businessNameField,
	clearMemberFields,
	contactPaths,
	memberIdLocator,
	optionalMemberFields,
} from './fields';
import { assertCapacity } from './validation';

export { records } from './output';

export const { option, properties, execute } = updateOperation({
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change or clear fields of a member',
		action: 'Update a member',
	},
	locator: memberIdLocator,
	fields: [businessNameField, ...optionalMemberFields],
	clearFields: clearMemberFields,
	nestedPaths: contactPaths,
	nonEmptyText: { business_name: 'Business Name' },
	check(body, itemIndex) {
		if (body.capacity !== undefined) assertCapacity.call(this, body.capacity, itemIndex);
	},
	save: patchRecord(API.members),
});
