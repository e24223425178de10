import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFieldsCollection, getAdditionalFieldsBody, getRequiredText } from '../common';
import { API, apiWrite } from '../../../shared/api';
import { customerNameField, optionalCustomerFields } from './fields';

const properties: INodeProperties[] = [
	{ ...customerNameField, required: true },
	additionalFieldsCollection(optionalCustomerFields),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = getRequiredText.call(this, 'name', 'Name', itemIndex);
	return await apiWrite.call(this, 'POST', API.customers, {
		body: { name, ...getAdditionalFieldsBody.call(this, itemIndex, optionalCustomerFields) },
	});
}
