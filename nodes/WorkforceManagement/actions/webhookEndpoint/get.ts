import { recordOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import { endpointIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a webhook endpoint',
		action: 'Get a webhook endpoint',
	},
	locator: endpointIdLocator,
	run: webhookEndpoints.get,
});
