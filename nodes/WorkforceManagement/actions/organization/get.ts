import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { API, apiRead } from '../../../shared/api';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject> {
	return await apiRead.call(this, API.organization);
}
