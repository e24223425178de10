import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiRead } from '../../../shared/api';
import type { OperationOption } from '../types';
import { siteIdLocator } from './fields';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get a site',
	action: 'Get a site',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [siteIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = getResourceId.call(this, 'siteId', 'Site', itemIndex);
	return await apiRead.call(this, API.sites, { id: siteId });
}
