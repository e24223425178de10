import { readRecord, recordOperation } from '../common';
import { API } from '../../../shared/api';
import { siteIdLocator } from './fields';

export { records } from './output';

export const { option, properties, execute } = recordOperation({
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get a site',
		action: 'Get a site',
	},
	locator: siteIdLocator,
	run: readRecord(API.sites),
});
