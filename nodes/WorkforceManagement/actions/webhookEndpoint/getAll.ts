import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getListLimit, returnAllOrLimit } from '../common';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['getAll'] } },
	returnAllOrLimit,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await webhookEndpoints.list.call(this, getListLimit.call(this, itemIndex));
}
