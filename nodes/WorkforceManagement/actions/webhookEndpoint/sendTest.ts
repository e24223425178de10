import type { IDataObject } from 'n8n-workflow';

import { eventTypeField, optionsCollection, recordOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import { endpointIdLocator } from './fields';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Send Test Event',
		value: 'sendTest',
		description: 'Send one test delivery to the endpoint',
		action: 'Send a test event to a webhook endpoint',
	},
	locator: endpointIdLocator,
	properties: [
		endpointIdLocator,
		optionsCollection([
			eventTypeField(
				'Event type whose example payload is sent; by default one the endpoint subscribes to',
			),
		]),
	],
	async run(id, itemIndex) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		return await webhookEndpoints.sendTest.call(this, id, options.event_type as string);
	},
});
