import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getEventCatalog } from '../../../shared/eventCatalog';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject[]> {
	return await getEventCatalog.call(this);
}
