import { getManyOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';

export { records } from './output';

export const { option, properties, execute } = getManyOperation({
	option: {
		name: 'Get Many',
		value: 'getAll',
		description: 'List the webhook endpoints of the key’s mode',
		action: 'Get many webhook endpoints',
	},
	async list(_query, limit) {
		return await webhookEndpoints.list.call(this, limit);
	},
});
