import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertCapacity, assertNonEmptyText, toRequestBody } from '../common';
import { SCOPE, workforceApiRequest } from '../../transport';
import { businessNameField, contactPaths, optionalMemberFields } from './fields';

const properties: INodeProperties[] = [
	{ ...businessNameField, name: 'businessName', required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: optionalMemberFields,
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const businessName = assertNonEmptyText.call(
		this,
		this.getNodeParameter('businessName', itemIndex),
		'Business Name',
		itemIndex,
	);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (additionalFields.capacity !== undefined) {
		assertCapacity.call(this, additionalFields.capacity, itemIndex);
	}
	const body = {
		business_name: businessName,
		...toRequestBody(additionalFields, contactPaths),
	};
	return await workforceApiRequest.call(this, 'POST', '/members', {
		body,
		operationScope: SCOPE.membersWrite,
	});
}
