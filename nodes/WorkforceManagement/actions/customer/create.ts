import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertNonEmptyText, toRequestBody } from '../common';
import { SCOPE, workforceApiRequest } from '../../transport';
import { customerNameField, optionalCustomerFields } from './fields';

const properties: INodeProperties[] = [
	{ ...customerNameField, required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: optionalCustomerFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const name = assertNonEmptyText.call(
		this,
		this.getNodeParameter('name', itemIndex),
		'Name',
		itemIndex,
	);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return await workforceApiRequest.call(this, 'POST', '/customers', {
		body: { name, ...toRequestBody(additionalFields) },
		operationScope: SCOPE.customersWrite,
	});
}
