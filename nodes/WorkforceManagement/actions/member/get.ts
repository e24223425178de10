import { readRecord, recordOperation } from '../common';
import { API } from '../../../shared/api';
import { memberIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a member',
		action: 'Get a member',
	},
	locator: memberIdLocator,
	run: readRecord(API.members),
});
