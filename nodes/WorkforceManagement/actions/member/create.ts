import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection, getAdditionalFieldsBody, getRequiredText } from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import { businessNameField, contactPaths, optionalMemberFields } from './fields';
import { assertCapacity } from './validation';

export const option = {
	name: 'Create',
	value: 'create',
	description: 'Create a member (starts as draft)',
	action: 'Create a member',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	{ ...businessNameField, name: 'businessName', required: true },
	additionalFieldsCollection(optionalMemberFields),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const businessName = getRequiredText.call(this, 'businessName', 'Business Name', itemIndex);
	const body: IDataObject = {
		business_name: businessName,
		...getAdditionalFieldsBody.call(this, itemIndex, optionalMemberFields, contactPaths),
	};
	if (body.capacity !== undefined) {
		assertCapacity.call(this, body.capacity, itemIndex);
	}
	return await apiWrite.call(this, 'POST', API.members, { body });
}
