import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { workforceEventCatalog } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject[]> {
	return await workforceEventCatalog.call(this);
}
