import type { INodeProperties } from 'n8n-workflow';

import { endpointEventsProperty } from '../../../shared/eventCatalog';
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

export const eventsField = endpointEventsProperty('Events to subscribe to, or All Events');

export const endpointDescriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	description: 'A note on what the endpoint is for',
};

export const clearEndpointFields = clearFieldsProperty([endpointDescriptionField]);
