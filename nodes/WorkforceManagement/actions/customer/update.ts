import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	assertNonEmptyText,
	getResourceId,
	getUpdateBody,
	updateFieldsCollection,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import {
	clearCustomerFields,
	customerIdLocator,
	customerNameField,
	optionalCustomerFields,
} from './fields';

const updateFields = [customerNameField, ...optionalCustomerFields];

export const option = {
	name: 'Update',
	value: 'update',
	description: 'Change or clear fields of a customer',
	action: 'Update a customer',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	customerIdLocator,
	updateFieldsCollection(updateFields, clearCustomerFields),
	clearCustomerFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields);
	if (body.name !== undefined) {
		assertNonEmptyText.call(this, body.name, 'Name', itemIndex);
	}
	return await apiWrite.call(this, 'PATCH', API.customers, { id: customerId, body });
}
