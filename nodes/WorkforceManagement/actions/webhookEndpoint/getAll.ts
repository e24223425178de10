import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyRecords, returnAllOrLimit } from '../common';
import { SCOPE } from '../../transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, '/webhook-endpoints', SCOPE.webhooksRead);
}
