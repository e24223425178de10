import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import { endpointIdLocator } from './fields';

export const option = {
	name: 'Roll Secret',
	value: 'rollSecret',
	description: 'Replace the signing secret and output the new one',
	action: 'Roll the signing secret of a webhook endpoint',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [
	{
		displayName:
			'The new signing secret is output once. The previous secret keeps signing for 24 hours, so receivers can switch over.',
		name: 'rollSecretNotice',
		type: 'notice',
		default: '',
	},
	endpointIdLocator,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	const secret = await webhookEndpoints.rollSecret.call(this, endpointId);
	return { id: endpointId, secret };
}
