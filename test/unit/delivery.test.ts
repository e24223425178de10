import { isJsonMediaType, storedSecrets } from '../../nodes/WorkforceManagementTrigger/delivery';

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

describe('storedSecrets', () => {
	it('answers a stored secret string as the one secret to verify with', () => {
		expect(storedSecrets('whsec_abc')).toEqual(['whsec_abc']);
	});

	it.each([undefined, null, '', 42, { secret: 'whsec_abc' }, ['whsec_abc']])(
		'answers no secret for %j, so verification fails closed',
		(stored) => expect(storedSecrets(stored)).toEqual([]),
	);
});
