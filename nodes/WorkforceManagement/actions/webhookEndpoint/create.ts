import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertEventList, assertHttpsUrl, toRequestBody } from '../common';
import { SCOPE, workforceApiRequest } from '../../transport';
import { endpointDescriptionField, eventsField, urlField } from './fields';

const properties: INodeProperties[] = [
	{ ...urlField, required: true },
	{ ...eventsField, required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [endpointDescriptionField],
	},
	{
		displayName: 'Output Signing Secret',
		name: 'outputSecret',
		type: 'boolean',
		default: false,
		description:
			'Whether to output the full signing secret, which the API returns only in this response. Off: only its masked preview is output; use Roll Secret to get a new one later.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const url = assertHttpsUrl.call(this, this.getNodeParameter('url', itemIndex), 'URL', itemIndex);
	const events = assertEventList.call(
		this,
		this.getNodeParameter('events', itemIndex),
		'Events',
		itemIndex,
	);
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const endpoint = (await workforceApiRequest.call(this, 'POST', '/webhook-endpoints', {
		body: { url, events, ...toRequestBody(additionalFields) },
		operationScope: SCOPE.webhooksWrite,
	})) as IDataObject;

	if (!(this.getNodeParameter('outputSecret', itemIndex, false) as boolean)) {
		delete endpoint.secret;
	}
	return endpoint;
}
