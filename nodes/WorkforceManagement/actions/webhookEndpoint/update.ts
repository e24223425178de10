import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId, getUpdateBody, updateFieldsCollection } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import type { OperationOption } from '../types';
import {
	clearEndpointFields,
	endpointDescriptionField,
	endpointIdLocator,
	eventsField,
	urlField,
} from './fields';
import { assertEventList, assertHttpsUrl } from './validation';

const updateFields: INodeProperties[] = [
	endpointDescriptionField,
	{
		displayName: 'Enabled',
		name: 'enabled',
		type: 'boolean',
		default: true,
		description:
			'Whether the endpoint receives events. Enabling it again also clears an automatic disable after failures.',
	},
	eventsField,
	urlField,
];

export const option = {
	name: 'Update',
	value: 'update',
	description: 'Change the URL, events, description or enabled state',
	action: 'Update a webhook endpoint',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
	endpointIdLocator,
	updateFieldsCollection(updateFields, clearEndpointFields),
	clearEndpointFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
	const body = getUpdateBody.call(this, itemIndex, updateFields);
	if (body.url !== undefined) {
		body.url = assertHttpsUrl.call(this, body.url, 'URL', itemIndex);
	}
	if (body.events !== undefined) {
		body.events = assertEventList.call(this, body.events, 'Events', itemIndex);
	}
	return await webhookEndpoints.update.call(this, endpointId, body);
}
