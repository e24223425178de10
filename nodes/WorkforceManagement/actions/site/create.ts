import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFieldsCollection,
	getAdditionalFieldsBody,
	getRequiredText,
	getResourceId,
	resourceLocator,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
import { optionalSiteFields, siteNameField } from './fields';

const properties: INodeProperties[] = [
	resourceLocator({
		displayName: 'Customer',
		name: 'customerId',
		searchListMethod: 'searchCustomers',
		description: 'The customer that owns the site',
	}),
	{ ...siteNameField, required: true },
	additionalFieldsCollection(optionalSiteFields),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['create'] } },
	properties,
);

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
