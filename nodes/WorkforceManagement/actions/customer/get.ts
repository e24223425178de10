import { readRecord, recordOperation } from '../common';
import { API } from '../../../shared/api';
import { customerIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a customer',
		action: 'Get a customer',
	},
	locator: customerIdLocator,
	run: readRecord(API.customers),
});
