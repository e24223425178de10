import { WorkforceManagementApi } from '../../credentials/WorkforceManagementApi.credentials';

describe('the credential signs requests', () => {
	const authenticate = new WorkforceManagementApi().authenticate;

	it('adds the API key as a Bearer token and keeps the request as it was', async () => {
		const request = {
			url: '/members',
			method: 'GET' as const,
			headers: { Accept: 'application/json' },
		};
		const signed = await authenticate({ apiKey: 'wfm_live_acme_all', baseUrl: 'x' }, request);
		expect(signed).toEqual({
			url: '/members',
			method: 'GET',
			headers: { Accept: 'application/json', Authorization: 'Bearer wfm_live_acme_all' },
		});
		expect(request.headers).toEqual({ Accept: 'application/json' });
	});

	it('works on a request without headers', async () => {
		const signed = await authenticate({ apiKey: 'k' }, { url: '/organization' });
		expect(signed.headers).toEqual({ Authorization: 'Bearer k' });
	});
});
