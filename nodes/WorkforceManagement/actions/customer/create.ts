import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection, getAdditionalFieldsBody, getRequiredText } from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import { customerNameField, optionalCustomerFields } from './fields';

export const option = {
	name: 'Create',
	value: 'create',
	description: 'Create a customer',
	action: 'Create a customer',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	{ ...customerNameField, required: true },
	additionalFieldsCollection(optionalCustomerFields),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = getRequiredText.call(this, 'name', 'Name', itemIndex);
	return await apiWrite.call(this, 'POST', API.customers, {
		body: { name, ...getAdditionalFieldsBody.call(this, itemIndex, optionalCustomerFields) },
	});
}
