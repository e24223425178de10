import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getListLimit, returnAllOrLimit } from '../common';
import { SCOPE, workforceApiPaginate } from '../../transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	return await workforceApiPaginate.call(this, '/webhook-endpoints', {}, limit, SCOPE.webhooksRead);
}
