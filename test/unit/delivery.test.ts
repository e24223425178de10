import { isJsonMediaType } from '../../nodes/WorkforceManagementTrigger/delivery';

describe('isJsonMediaType', () => {
	it.each([
		'application/json',
		'application/json; charset=utf-8',
		'Application/JSON',
		' application/json ',
	])('accepts %j', (contentType) => expect(isJsonMediaType(contentType)).toBe(true));

	it.each([
		undefined,
		'',
		'text/plain',
		'multipart/form-data; boundary=x',
		'application/x-www-form-urlencoded',
		'application/json-patch+json',
		'application/jsonx',
		['application/json', 'application/json'],
	])('refuses %j', (contentType) => expect(isJsonMediaType(contentType)).toBe(false));
});
