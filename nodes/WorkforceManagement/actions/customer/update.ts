import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assertNonEmptyText,
	getResourceId,
	getUpdateBody,
	updateFieldsCollection,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
import {
	clearCustomerFields,
	customerIdLocator,
	customerNameField,
	optionalCustomerFields,
} from './fields';

const updateFields = [customerNameField, ...optionalCustomerFields];

const properties: INodeProperties[] = [
	customerIdLocator,
	updateFieldsCollection(updateFields, clearCustomerFields),
	clearCustomerFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields);
	if (body.name !== undefined) {
		assertNonEmptyText.call(this, body.name, 'Name', itemIndex);
	}
	return await apiWrite.call(this, 'PATCH', API.customers, { id: customerId, body });
}
