import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { siteIdLocator } from './fields';
import { PATH } from '../paths';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['get'] } },
	[siteIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const siteId = getResourceId.call(this, 'siteId', 'Site', itemIndex);
	return await workforceApiRequest.call(this, 'GET', `${PATH.sites}/${siteId}`, {
		operationScope: SCOPE.customersRead,
	});
}
