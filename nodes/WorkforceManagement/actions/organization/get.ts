import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { SCOPE, workforceApiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject> {
	return await workforceApiRequest.call(this, 'GET', '/organization', {
		operationScope: SCOPE.organizationRead,
	});
}
