import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFieldsCollection,
	getAdditionalFieldsBody,
	getRequiredText,
	getResourceId,
	resourceLocator,
} from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { optionalSiteFields, siteNameField } from './fields';
import { PATH } from '../paths';

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
	return await workforceApiRequest.call(this, 'POST', PATH.sites, {
		body: {
			customer_id: customerId,
			name,
			...getAdditionalFieldsBody.call(this, itemIndex, optionalSiteFields),
		},
		operationScope: SCOPE.customersWrite,
	});
}
