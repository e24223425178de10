import { apiRootUrl } from '../../nodes/shared/transport';
import { userInfoRedactor } from '../../nodes/shared/transport/baseUrl';

describe('apiRootUrl', () => {
	it.each([
		['https://wfm.example', 'https://wfm.example/api/v1'],
		[' https://wfm.example// ', 'https://wfm.example/api/v1'],
		['https://wfm.example/api', 'https://wfm.example/api/v1'],
		['https://wfm.example/api/v1/', 'https://wfm.example/api/v1'],
		// only a trailing /api or /api/v1 is the API's path; one inside the path stays
		['https://wfm.example/api/v1/proxy', 'https://wfm.example/api/v1/proxy/api/v1'],
	])('reads %j as %s', (baseUrl, root) => {
		expect(apiRootUrl(baseUrl)).toBe(root);
	});
});

describe('userInfoRedactor', () => {
	it('blanks out user:password of the Base URL, and the password alone, as written and decoded', () => {
		const redact = userInfoRedactor(' https://ada:s3cr%40t@wfm.example/api/v1');

		expect(redact(apiRootUrl(' https://ada:s3cr%40t@wfm.example/api/v1'))).toBe(
			'https://***@wfm.example/api/v1',
		);
		expect(redact('password s3cr%40t, decoded s3cr@t, user ada')).toBe(
			'password ***, decoded ***, user ada',
		);
	});

	it('blanks out a user info without a password whole, and nothing else', () => {
		const redact = userInfoRedactor('https://tok3n@wfm.example');

		expect(redact('GET https://tok3n@wfm.example/api/v1/members failed')).toBe(
			'GET https://***@wfm.example/api/v1/members failed',
		);
	});

	it('leaves every text alone when the Base URL has no user info', () => {
		const redact = userInfoRedactor('https://wfm.example');
		// a URL further on is not the Base URL's user info
		const inQuery = 'https://wfm.example/go?to=http://a:b@c';
		expect(userInfoRedactor(inQuery)(`see ${inQuery}`)).toBe(`see ${inQuery}`);

		expect(redact('connect ECONNREFUSED https://wfm.example/@x')).toBe(
			'connect ECONNREFUSED https://wfm.example/@x',
		);
	});
});
