import { recordOperation } from '../common';
import { webhookEndpoints } from '../../../shared/webhooks';
import { endpointIdLocator } from './fields';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Roll Secret',
		value: 'rollSecret',
		description: 'Replace the signing secret and output the new one',
		action: 'Roll the signing secret of a webhook endpoint',
	},
	locator: endpointIdLocator,
	properties: [
		{
			displayName:
				'The new signing secret is output once. The previous secret keeps signing for 24 hours, so receivers can switch over.',
			name: 'rollSecretNotice',
			type: 'notice',
			default: '',
		},
		endpointIdLocator,
	],
	async run(id) {
		const secret = await webhookEndpoints.rollSecret.call(this, id);
		return { id, secret };
	},
});
