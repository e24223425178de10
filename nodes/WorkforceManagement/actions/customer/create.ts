import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFieldsCollection, getAdditionalFieldsBody, getRequiredText } from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { customerNameField, optionalCustomerFields } from './fields';
import { PATH } from '../paths';

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
	return await workforceApiRequest.call(this, 'POST', PATH.customers, {
		body: { name, ...getAdditionalFieldsBody.call(this, itemIndex, optionalCustomerFields) },
		operationScope: SCOPE.customersWrite,
	});
}
