import type { INodeProperties } from 'n8n-workflow';

import {
	clearFieldsProperty,
	contactNameField,
	contactPhoneField,
	notesField,
	resourceLocator,
} from '../common';

export const customerIdLocator = resourceLocator({
	displayName: 'Customer',
	name: 'customerId',
	searchListMethod: 'searchCustomers',
});

export const customerStatusOptions = [
	{ name: 'Active', value: 'active' },
	{ name: 'Inactive', value: 'inactive' },
	{ name: 'Prospect', value: 'prospect' },
];

export const customerNameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Name of the client company',
};

const billingRate: INodeProperties = {
	displayName: 'Billing Rate',
	name: 'billing_rate',
	type: 'number',
	default: 0,
	description: 'Default billing rate for the customer',
};

const contactEmail: INodeProperties = {
	displayName: 'Contact Email',
	name: 'contact_email',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
};

export const optionalCustomerFields: INodeProperties[] = [
	billingRate,
	contactEmail,
	contactNameField,
	contactPhoneField,
	notesField,
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: customerStatusOptions,
		default: 'active',
	},
];

export const clearCustomerFields = clearFieldsProperty([
	billingRate,
	contactEmail,
	contactNameField,
	contactPhoneField,
	notesField,
]);
