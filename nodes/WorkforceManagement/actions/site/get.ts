import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiRead } from '../../../shared/api';
import { siteIdLocator } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['get'] } },
	[siteIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = getResourceId.call(this, 'siteId', 'Site', itemIndex);
	return await apiRead.call(this, API.sites, { id: siteId });
}
