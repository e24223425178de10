import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	assertNonEmptyText,
	getResourceId,
	getUpdateBody,
	updateFieldsCollection,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import { clearSiteFields, optionalSiteFields, siteIdLocator, siteNameField } from './fields';

const updateFields: INodeProperties[] = [
	{
		displayName: 'Is Active',
		name: 'is_active',
		type: 'boolean',
		default: true,
		description: 'Whether the site is active',
	},
	siteNameField,
	...optionalSiteFields,
];

export const option = {
	name: 'Update',
	value: 'update',
	description: 'Change or clear fields of a site, or (de)activate it',
	action: 'Update a site',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	siteIdLocator,
	updateFieldsCollection(updateFields, clearSiteFields),
	clearSiteFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = getResourceId.call(this, 'siteId', 'Site', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields);
	if (body.name !== undefined) {
		assertNonEmptyText.call(this, body.name, 'Name', itemIndex);
	}
	return await apiWrite.call(this, 'PATCH', API.sites, { id: siteId, body });
}
