import type { INodeProperties } from 'n8n-workflow';

import { clearFieldsProperty, resourceLocator } from '../common';
import { MAX_CAPACITY } from './validation';

export const memberIdLocator = resourceLocator({
	displayName: 'Member',
	name: 'memberId',
	searchListMethod: 'searchMembers',
});

/** Contact fields sit flat in the UI and nested under `contact` in the API. */
export const contactPaths = { email: 'contact.email', phone: 'contact.phone' };

const displayName: INodeProperties = {
	displayName: 'Display Name',
	name: 'display_name',
	type: 'string',
	default: '',
	description: 'Personal display name, when different from the business name',
};

const description: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
};

const capacity: INodeProperties = {
	displayName: 'Capacity',
	name: 'capacity',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_CAPACITY, numberPrecision: 0 },
	default: 1,
	description: 'How many concurrent placements or clients the member can take',
	// The editor silently turns a typed negative number into 0: say the range where it shows.
	hint: `A whole number from 0 to ${MAX_CAPACITY}. A negative number typed here becomes 0; one from an expression is refused.`,
};

const email: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
	description: 'Contact email of the member',
};

const phone: INodeProperties = {
	displayName: 'Phone',
	name: 'phone',
	type: 'string',
	default: '',
	description: 'Contact phone number of the member',
};

export const businessNameField: INodeProperties = {
	displayName: 'Business Name',
	name: 'business_name',
	type: 'string',
	default: '',
	description: 'Business or working name of the member',
};

export const optionalMemberFields: INodeProperties[] = [
	capacity,
	description,
	displayName,
	email,
	phone,
];

export const clearMemberFields = clearFieldsProperty(
	[description, displayName, email, phone],
	contactPaths,
);
