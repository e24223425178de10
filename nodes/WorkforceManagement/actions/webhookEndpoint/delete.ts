import { recordOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import { endpointIdLocator } from './fields';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Delete an endpoint and its delivery history',
		action: 'Delete a webhook endpoint',
	},
	locator: endpointIdLocator,
	async run(id) {
		await webhookEndpoints.delete.call(this, id);
		return { deleted: true, id };
	},
});
