import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';
import { endpointIdLocator } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['rollSecret'] } },
	[
		{
			displayName:
				'The new signing secret is output once. The previous secret keeps signing for 24 hours, so receivers can switch over.',
			name: 'rollSecretNotice',
			type: 'notice',
			default: '',
		},
		endpointIdLocator,
	],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	const secret = await webhookEndpoints.rollSecret.call(this, endpointId);
	return { id: endpointId, secret };
}
