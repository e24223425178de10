import { recordOperation } from '../common';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';
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
