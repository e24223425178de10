import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';
import { endpointIdLocator } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['delete'] } },
	[endpointIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	await webhookEndpoints.delete.call(this, endpointId);
	return { deleted: true, id: endpointId };
}
