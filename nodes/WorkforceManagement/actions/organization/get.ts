import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { workforceApiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject> {
	return await workforceApiRequest.call(this, 'GET', '/organization', {
		operationScope: 'organization:read',
	});
}
