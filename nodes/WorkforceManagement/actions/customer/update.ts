import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assertNonEmptyText,
	getResourceId,
	getUpdateBody,
	updateFieldsCollection,
} from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import {
	clearCustomerFields,
	customerIdLocator,
	customerNameField,
	optionalCustomerFields,
} from './fields';
import { PATH } from '../paths';

const updateFields = [customerNameField, ...optionalCustomerFields];

const properties: INodeProperties[] = [
	customerIdLocator,
	updateFieldsCollection(updateFields),
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
	return await workforceApiRequest.call(this, 'PATCH', `${PATH.customers}/${customerId}`, {
		body,
		operationScope: SCOPE.customersWrite,
	});
}
