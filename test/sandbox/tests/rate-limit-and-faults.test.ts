import { LIVE_KEY, TEST_KEY, api, control, expectError, useSandbox } from './helpers';

const sandbox = useSandbox({ rateLimit: { requests: 5, perSeconds: 10 } });

describe('429 rate limited', () => {
	it('answers 429 with Retry-After past the per-key limit, and lets requests through once the window passes', async () => {
		for (let index = 0; index < 5; index++) {
			const answer = await api(sandbox.current, LIVE_KEY, 'GET', '/organization');
			expect(answer.status).toBe(200);
			expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
			expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(4 - index));
		}
		const limited = await api(sandbox.current, LIVE_KEY, 'GET', '/organization');
		expectError(limited, 429, 'rate_limited');
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(10);

		// another key has its own window
		expect((await api(sandbox.current, TEST_KEY, 'GET', '/organization')).status).toBe(200);

		await control(sandbox.current, 'POST', '/clock/advance', { seconds: retryAfter });
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});

	it('starts every test with an empty window after a reset', async () => {
		for (let index = 0; index < 5; index++)
			await api(sandbox.current, LIVE_KEY, 'GET', '/organization');
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/organization')).status).toBe(429);
		await control(sandbox.current, 'POST', '/reset');
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});
});

describe('injected faults', () => {
	it('answers the next N requests with the injected status, then recovers', async () => {
		await control(sandbox.current, 'POST', '/faults', { status: 503, count: 2 });
		const first = await api(sandbox.current, LIVE_KEY, 'GET', '/organization');
		expectError(first, 503, 'service_unavailable');
		expectError(await api(sandbox.current, null, 'GET', '/members'), 503, 'service_unavailable');
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});

	it('injects 429 with the requested Retry-After', async () => {
		await control(sandbox.current, 'POST', '/faults', { status: 429, count: 1, retry_after: 7 });
		const answer = await api(sandbox.current, LIVE_KEY, 'GET', '/members');
		expectError(answer, 429, 'rate_limited');
		expect(answer.headers.get('retry-after')).toBe('7');
	});

	it('limits a fault to paths under a prefix, given with or without /api/v1', async () => {
		await control(sandbox.current, 'POST', '/faults', { status: 500, count: 1, path: '/members' });
		await control(sandbox.current, 'POST', '/faults', {
			status: 503,
			count: 1,
			path: '/api/v1/customers',
		});
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		expectError(
			await api(sandbox.current, LIVE_KEY, 'GET', '/customers'),
			503,
			'service_unavailable',
		);
		expectError(await api(sandbox.current, LIVE_KEY, 'GET', '/members'), 500, 'internal_error');
		expect((await api(sandbox.current, LIVE_KEY, 'GET', '/members')).status).toBe(200);
		expect((await control(sandbox.current, 'GET', '/faults')).faults).toEqual([]);
	});

	it('refuses statuses it does not simulate', async () => {
		const answer = await fetch(`${sandbox.current.origin}/__sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ status: 418, count: 1 }),
		});
		expect(answer.status).toBe(400);
		const body = (await answer.json()) as { error: { details: Array<{ field: string }> } };
		expect(body.error.details[0].field).toBe('status');
	});
});
