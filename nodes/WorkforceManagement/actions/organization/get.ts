import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { PATH } from '../paths';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject> {
	return await workforceApiRequest.call(this, 'GET', PATH.organization, {
		operationScope: SCOPE.organizationRead,
	});
}
