import { apiRootUrl } from '../../nodes/shared/transport';
import { userInfoRedactor } from '../../nodes/shared/transport/baseUrl';

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

	it('leaves every text alone when the Base URL has no user info', () => {
		const redact = userInfoRedactor('https://wfm.example');

		expect(redact('connect ECONNREFUSED https://wfm.example/@x')).toBe(
			'connect ECONNREFUSED https://wfm.example/@x',
		);
	});
});
