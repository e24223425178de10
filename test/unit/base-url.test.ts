import { apiRootUrl, baseUrlProblem, userInfoRedactor } from '../../nodes/shared/transport';

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

describe('baseUrlProblem', () => {
	it.each([
		'https://wfm.example/api/v1',
		'HTTPS://wfm.example',
		'http://127.0.0.1:4010/api/v1',
		'http://127.255.0.9/api/v1',
		'http://127.0.10.10:4010/api/v1',
		'http://localhost:4010',
		'HTTP://LOCALHOST:4010/api/v1',
		'http://[::1]:4010/api/v1',
		'http://admin:pw@127.0.0.1:4010/api/v1',
		' https://wfm.example/api/v1 ',
	])('accepts %j', (baseUrl) => {
		expect(baseUrlProblem(baseUrl)).toBeUndefined();
	});

	it.each([
		['http://wfm.example/api/v1', 'wfm.example'],
		['http://10.0.0.5:8080', '10.0.0.5:8080'],
		['http://128.0.0.1', '128.0.0.1'],
		['http://127.0.0.1.example.com', '127.0.0.1.example.com'],
		['http://localhost.example.com', 'localhost.example.com'],
		['http://[::2]', '[::2]'],
		['http://[::ffff:10.0.0.1]', '[::ffff:a00:1]'],
		['http://user:pw@wfm.example', 'wfm.example'],
		// other spellings of the same addresses
		['HTTP://WFM.EXAMPLE/api/v1', 'wfm.example'],
		['  http://wfm.example/api/v1/ ', 'wfm.example'],
		['http://wfm.example.', 'wfm.example.'],
		['http://0x0a.0.0.5', '10.0.0.5'],
		['http://167772165', '10.0.0.5'],
		['http://127.0.0.1%2eexample.com', '127.0.0.1.example.com'],
	])('refuses http:// to another machine: %j', (baseUrl, host) => {
		const problem = baseUrlProblem(baseUrl);
		expect(problem).toBe(
			`The Base URL starts with http://, so the API key would travel unencrypted to ${host}. Use the https:// address: the Workforce Management API is served over HTTPS, and http:// is accepted only for this machine (localhost, 127.0.0.1, ::1).`,
		);
		expect(problem).not.toContain('pw');
	});

	it.each([
		['no scheme', 'wfm.example/api/v1', /^The Base URL must start with https:\/\/\. /],
		['another scheme', 'ftp://wfm.example', /^The Base URL must start with https:\/\/\. /],
		[
			'a scheme that only ends in https',
			'xhttps://wfm.example',
			/^The Base URL must start with https:\/\/\. /,
		],
		['an empty value', '', /^The Base URL must start with https:\/\/\. /],
		[
			'no valid address',
			'https://[wfm.example/api/v1',
			/^The Base URL is not a valid web address\. /,
		],
	])('refuses %s', (_case, baseUrl, message) => {
		expect(baseUrlProblem(baseUrl)).toMatch(message);
	});
});
