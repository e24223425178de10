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
	businessNameField,
	clearMemberFields,
	contactPaths,
	memberIdLocator,
	optionalMemberFields,
} from './fields';
import { assertCapacity } from './validation';

const updateFields = [businessNameField, ...optionalMemberFields];

export const option = {
	name: 'Update',
	value: 'update',
	description: 'Change or clear fields of a member',
	action: 'Update a member',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	memberIdLocator,
	updateFieldsCollection(updateFields, clearMemberFields),
	clearMemberFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const memberId = getResourceId.call(this, 'memberId', 'Member', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields, contactPaths);
	if (body.business_name !== undefined) {
		assertNonEmptyText.call(this, body.business_name, 'Business Name', itemIndex);
	}
	if (body.capacity !== undefined) {
		assertCapacity.call(this, body.capacity, itemIndex);
	}
	return await apiWrite.call(this, 'PATCH', API.members, { id: memberId, body });
}
