import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assertNonEmptyText,
	getResourceId,
	getUpdateBody,
	updateFieldsCollection,
} from '../common';
import { API, apiWrite } from '../../../shared/api';
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

const properties: INodeProperties[] = [
	siteIdLocator,
	updateFieldsCollection(updateFields, clearSiteFields),
	clearSiteFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = getResourceId.call(this, 'siteId', 'Site', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields);
	if (body.name !== undefined) {
		assertNonEmptyText.call(this, body.name, 'Name', itemIndex);
	}
	return await apiWrite.call(this, 'PATCH', API.sites, { id: siteId, body });
}
