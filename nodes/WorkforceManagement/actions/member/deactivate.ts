import { postAction, recordOperation } from '../common';
import { API } from '../../../shared/api';
import { memberIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Deactivate',
		value: 'deactivate',
		description: 'Set a member inactive',
		action: 'Deactivate a member',
	},
	locator: memberIdLocator,
	run: postAction(API.members, 'deactivate'),
});
