import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertNonEmptyText, getResourceId, resourceLocator, toRequestBody } from '../common';
import { SCOPE, workforceApiRequest } from '../../transport';
import { optionalSiteFields, siteNameField } from './fields';

const properties: INodeProperties[] = [
	resourceLocator({
		displayName: 'Customer',
		name: 'customerId',
		searchListMethod: 'searchCustomers',
		description: 'The customer that owns the site',
	}),
	{ ...siteNameField, required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: optionalSiteFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	const name = assertNonEmptyText.call(
		this,
		this.getNodeParameter('name', itemIndex),
		'Name',
		itemIndex,
	);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return await workforceApiRequest.call(this, 'POST', '/sites', {
		body: { customer_id: customerId, name, ...toRequestBody(additionalFields) },
		operationScope: SCOPE.customersWrite,
	});
}
