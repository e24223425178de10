import type { INodeProperties } from 'n8n-workflow';

import {
	clearFieldsProperty,
	contactNameField,
	contactPhoneField,
	notesField,
	resourceLocator,
} from '../common';

export const siteIdLocator = resourceLocator({
	displayName: 'Site',
	name: 'siteId',
	searchListMethod: 'searchSites',
});

export const siteNameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Name of the location, e.g. a branch, venue or facility',
};

const staffRequirements: INodeProperties = {
	displayName: 'Staff Requirements',
	name: 'staff_requirements',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
};

export const optionalSiteFields: INodeProperties[] = [
	contactNameField,
	contactPhoneField,
	notesField,
	{
		displayName: 'Orientation Required',
		name: 'orientation_required',
		type: 'boolean',
		default: false,
		description: 'Whether members need an orientation before working at this site',
	},
	staffRequirements,
];

export const clearSiteFields = clearFieldsProperty([
	contactNameField,
	contactPhoneField,
	notesField,
	staffRequirements,
]);
