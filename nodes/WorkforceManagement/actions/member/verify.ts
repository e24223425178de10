import { postAction, recordOperation } from '../common';
import { API } from '../../../shared/api';
import { memberIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Verify',
		value: 'verify',
		description: 'Mark a member as verified',
		action: 'Verify a member',
	},
	locator: memberIdLocator,
	run: postAction(API.members, 'verify'),
});
