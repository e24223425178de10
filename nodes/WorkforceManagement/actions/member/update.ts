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
	businessNameField,
	clearMemberFields,
	contactPaths,
	memberIdLocator,
	optionalMemberFields,
} from './fields';
import { assertCapacity } from './validation';

const updateFields = [businessNameField, ...optionalMemberFields];

const properties: INodeProperties[] = [
	memberIdLocator,
	updateFieldsCollection(updateFields, clearMemberFields),
	clearMemberFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['update'] } },
	properties,
);

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
