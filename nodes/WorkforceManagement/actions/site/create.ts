import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	additionalFieldsCollection,
	getAdditionalFieldsBody,
	getRequiredText,
	getResourceId,
	resourceLocator,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import { optionalSiteFields, siteNameField } from './fields';

export const option = {
	name: 'Create',
	value: 'create',
	description: 'Create a site (a customer location)',
	action: 'Create a site',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	resourceLocator({
		displayName: 'Customer',
		name: 'customerId',
		searchListMethod: 'searchCustomers',
		description: 'The customer that owns the site',
	}),
	{ ...siteNameField, required: true },
	additionalFieldsCollection(optionalSiteFields),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	const name = getRequiredText.call(this, 'name', 'Name', itemIndex);
	return await apiWrite.call(this, 'POST', API.sites, {
		body: {
			customer_id: customerId,
			name,
			...getAdditionalFieldsBody.call(this, itemIndex, optionalSiteFields),
		},
	});
}
