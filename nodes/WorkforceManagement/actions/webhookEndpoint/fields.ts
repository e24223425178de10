import type { INodeProperties } from 'n8n-workflow';

import { clearFieldsProperty, resourceLocator } from '../common';

export const endpointIdLocator = resourceLocator({
	displayName: 'Webhook Endpoint',
	name: 'endpointId',
	searchListMethod: 'searchWebhookEndpoints',
});

export const urlField: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	default: '',
	placeholder: 'https://example.com/webhooks/workforce',
	description: 'The HTTPS URL that receives the events',
};

export const eventsField: INodeProperties = {
	displayName: 'Event Names or IDs',
	name: 'events',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getEndpointEventTypes' },
	default: [],
	description:
		'Events to subscribe to, or All Events. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const endpointDescriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'A note on what the endpoint is for',
};

export const clearEndpointFields = clearFieldsProperty([endpointDescriptionField]);
