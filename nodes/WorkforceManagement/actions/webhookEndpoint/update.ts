import { updateOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import {
	clearEndpointFields,
	endpointDescriptionField,
	endpointIdLocator,
	eventsField,
	urlField,
} from './fields';
import { assertEventList, assertHttpsUrl } from './validation';

export { records } from './output';

export const { option, properties, execute } = updateOperation({
	option: {
		name: 'Update',
		value: 'update',
		description: 'Change the URL, events, description or enabled state',
		action: 'Update a webhook endpoint',
	},
	locator: endpointIdLocator,
	fields: [
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
	],
	clearFields: clearEndpointFields,
	check(body, itemIndex) {
		if (body.url !== undefined) body.url = assertHttpsUrl.call(this, body.url, 'URL', itemIndex);
		if (body.events !== undefined) {
			body.events = assertEventList.call(this, body.events, 'Events', itemIndex);
		}
	},
	save: webhookEndpoints.update,
});
