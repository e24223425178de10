import { patchRecord, updateOperation } from '../common';
import { API } from '../../../shared/api';
import { clearSiteFields, optionalSiteFields, siteIdLocator, siteNameField } from './fields';

export { records } from './output';

export const { option, properties, execute } = updateOperation({
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change or clear fields of a site, or (de)activate it',
		action: 'Update a site',
	},
	locator: siteIdLocator,
	fields: [
		{
			displayName: 'Is Active',
			name: 'is_active',
			type: 'boolean',
			default: true,
			description: 'Whether the site is active',
		},
		siteNameField,
		...optionalSiteFields,
	],
	clearFields: clearSiteFields,
	nonEmptyText: { name: 'Name' },
	save: patchRecord(API.sites),
});
