import { api, control } from '../../harness/sandbox-api';
import { expectError } from '../support/sandbox-shapes';
import { LIVE_KEY, TEST_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';

const fixture = useSandbox({ rateLimit: { requests: 5, perSeconds: 10 } });

/** A fault request as is, to see how the control interface answers it. */
async function postFault(body: unknown) {
	const answer = await fetch(`${fixture.sandbox.origin}/__sandbox/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return {
		status: answer.status,
		body: (await answer.json()) as {
			error: { details: Array<{ field: string; message: string }> };
		},
	};
}

describe('429 rate limited', () => {
	it('answers 429 with Retry-After past the per-key limit, and lets requests through once the window passes', async () => {
		for (let index = 0; index < 5; index++) {
			const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
			expect(answer.status).toBe(200);
			expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
			expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(4 - index));
		}
		const limited = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		expectError(limited, 429, 'rate_limited');
		expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(10);

		// another key has its own window
		expect((await api(fixture.sandbox, TEST_KEY, 'GET', '/organization')).status).toBe(200);

		await control(fixture.sandbox, 'POST', '/clock/advance', { seconds: retryAfter });
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});

	it('starts every test with an empty window after a reset', async () => {
		for (let index = 0; index < 5; index++)
			await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(429);
		await control(fixture.sandbox, 'POST', '/reset');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});
});

describe('injected faults', () => {
	it('answers the next N requests with the injected status, then recovers', async () => {
		await control(fixture.sandbox, 'POST', '/faults', { status: 503, count: 2 });
		const first = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		expectError(first, 503, 'service_unavailable');
		expectError(await api(fixture.sandbox, null, 'GET', '/members'), 503, 'service_unavailable');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
	});

	it('injects 429 with the requested Retry-After', async () => {
		await control(fixture.sandbox, 'POST', '/faults', { status: 429, count: 1, retry_after: 7 });
		const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', '/members');
		expectError(answer, 429, 'rate_limited');
		expect(answer.headers.get('retry-after')).toBe('7');
	});

	it('limits a fault to paths under a prefix, given with or without /api/v1', async () => {
		await control(fixture.sandbox, 'POST', '/faults', { status: 500, count: 1, path: '/members' });
		await control(fixture.sandbox, 'POST', '/faults', {
			status: 503,
			count: 1,
			path: '/api/v1/customers',
		});
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		expectError(
			await api(fixture.sandbox, LIVE_KEY, 'GET', '/customers'),
			503,
			'service_unavailable',
		);
		expectError(await api(fixture.sandbox, LIVE_KEY, 'GET', '/members'), 500, 'internal_error');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).status).toBe(200);
		expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([]);
	});

	it('refuses statuses it does not simulate', async () => {
		const answer = await postFault({ status: 418, count: 1 });
		expect(answer.status).toBe(400);
		expect(answer.body.error.details[0].field).toBe('status');
	});

	describe('repeat_cursor', () => {
		const listMembers = async (query: string) =>
			(await api(fixture.sandbox, LIVE_KEY, 'GET', `/members?${query}`)).body;

		beforeEach(async () => {
			await control(fixture.sandbox, 'POST', '/seed/members', {
				organization: 'acme',
				mode: 'live',
				count: 5,
			});
		});

		it('answers the next N list pages asked with a cursor with that same cursor as next_cursor', async () => {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'repeat_cursor',
				count: 2,
				path: '/members',
			});

			const first = await listMembers('limit=2');
			const cursor = first.next_cursor as string;
			expect(cursor).toEqual(expect.any(String));
			// The first page has no cursor to repeat: both uses of the fault are left.
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([
				{ kind: 'repeat_cursor', remaining: 2, path: '/members' },
			]);

			const repeated = await listMembers(`limit=2&cursor=${cursor}`);
			expect(repeated).toMatchObject({ has_more: true, next_cursor: cursor });
			expect(
				repeated.data.map((member: { business_name: string }) => member.business_name),
			).toEqual(['Seeded Member 3', 'Seeded Member 2']);
			expect((await listMembers(`limit=2&cursor=${cursor}`)).next_cursor).toBe(cursor);

			const recovered = await listMembers(`limit=2&cursor=${cursor}`);
			expect(recovered.next_cursor).toEqual(expect.any(String));
			expect(recovered.next_cursor).not.toBe(cursor);
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([]);
		});

		it('is spent only by list pages asked with a cursor, and leaves status faults their own requests', async () => {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'repeat_cursor',
				count: 1,
				path: '/api/v1/members',
			});
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'status',
				status: 503,
				count: 1,
				path: '/members',
			});

			expectError(
				await api(fixture.sandbox, LIVE_KEY, 'GET', '/members?limit=1'),
				503,
				'service_unavailable',
			);
			const first = await listMembers('limit=1');
			const cursor = first.next_cursor as string;
			const member = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members/${first.data[0].id}`);
			expect(member.status).toBe(200);
			expect((await listMembers(`limit=1&cursor=${cursor}`)).next_cursor).toBe(cursor);
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([]);
		});

		it('refuses a status on a repeat_cursor fault, and kinds it does not simulate', async () => {
			const withStatus = await postFault({ kind: 'repeat_cursor', count: 1, status: 500 });
			expect(withStatus.status).toBe(400);
			expect(withStatus.body.error.details).toEqual([
				{ field: 'status', message: 'is not a known field' },
			]);

			const unknownKind = await postFault({ kind: 'wrong_page', count: 1, status: 500 });
			expect(unknownKind.status).toBe(400);
			expect(unknownKind.body.error.details).toEqual([
				{
					field: 'kind',
					message:
						'must be one of: status, repeat_cursor, broken_page, reset, slow_body, late_answer',
				},
			]);
		});
	});

	describe('broken_page', () => {
		const listMembers = async (query: string) =>
			await api(fixture.sandbox, LIVE_KEY, 'GET', `/members?${query}`);
		const injectBrokenPage = async (variant: string, count = 1) =>
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'broken_page',
				variant,
				count,
				path: '/members',
			});

		beforeEach(async () => {
			await control(fixture.sandbox, 'POST', '/seed/members', {
				organization: 'acme',
				mode: 'live',
				count: 5,
			});
		});

		it.each([
			['no_cursor', { next_cursor: null }],
			['empty_cursor', { next_cursor: '' }],
			['missing_cursor', {}],
		] as const)('%s: answers the records with has_more true and %j', async (variant, cursor) => {
			await injectBrokenPage(variant);
			const broken = (await listMembers('limit=2')).body;
			expect(broken).toStrictEqual({ data: expect.any(Array), has_more: true, ...cursor });
			expect(broken.data).toHaveLength(2);
			expect((await listMembers('limit=2')).body.next_cursor).toEqual(expect.any(String));
		});

		it('over_limit: answers each record of the page twice, then pages as asked', async () => {
			await injectBrokenPage('over_limit');
			const broken = (await listMembers('limit=2')).body;
			const ids = broken.data.map((member: { id: string }) => member.id);
			expect(ids).toEqual([ids[0], ids[0], ids[2], ids[2]]);
			expect(ids[0]).not.toBe(ids[2]);
			expect(broken).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
			expect((await listMembers('limit=2')).body.data).toHaveLength(2);
		});

		it('empty_page: answers no records but a fresh cursor, then the list goes on from there', async () => {
			await injectBrokenPage('empty_page', 2);
			const first = (await listMembers('limit=2')).body;
			expect(first).toMatchObject({ data: [], has_more: true });
			const second = (await listMembers(`limit=2&cursor=${first.next_cursor}`)).body;
			expect(second).toMatchObject({ data: [], has_more: true });
			expect(second.next_cursor).not.toBe(first.next_cursor);
			const last = (await listMembers(`limit=2&cursor=${second.next_cursor}`)).body;
			expect(last).toMatchObject({ has_more: false, next_cursor: null });
			expect(last.data).toHaveLength(1);
		});

		it('not_json: answers 200 with an HTML body', async () => {
			await injectBrokenPage('not_json');
			const answer = await fetch(`${fixture.sandbox.baseUrl}/members`, {
				headers: { authorization: `Bearer ${LIVE_KEY}` },
			});
			expect(answer.status).toBe(200);
			expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
			expect(await answer.text()).toContain('<html>');
		});

		it('no_data: answers 200 JSON without the data array', async () => {
			await injectBrokenPage('no_data');
			const answer = await listMembers('limit=2');
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ has_more: true, next_cursor: expect.any(String) });
		});

		it('no_has_more: answers 200 JSON with the records but without has_more', async () => {
			await injectBrokenPage('no_has_more');
			const answer = await listMembers('limit=2');
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ data: expect.any(Array), next_cursor: expect.any(String) });
			expect(answer.body.data).toHaveLength(2);
		});

		it('is spent only by list pages, and refuses unknown variants and counts over 10,000', async () => {
			await injectBrokenPage('no_data');
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([
				{ kind: 'broken_page', variant: 'no_data', remaining: 1, path: '/members' },
			]);

			const unknown = await postFault({ kind: 'broken_page', variant: 'slow', count: 1 });
			expect(unknown.status).toBe(400);
			expect(unknown.body.error.details[0].field).toBe('variant');
			const tooMany = await postFault({ kind: 'broken_page', variant: 'no_data', count: 10_001 });
			expect(tooMany.status).toBe(400);
			expect(tooMany.body.error.details[0].field).toBe('count');
		});
	});

	describe('reset', () => {
		it('lets `after` requests through, then closes the connection of the next `count` unanswered', async () => {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'reset',
				count: 2,
				after: 1,
				path: '/organization',
			});

			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).status).toBe(200);
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
			await expect(api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).rejects.toThrow(
				'fetch failed',
			);
			await expect(api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).rejects.toThrow(
				'fetch failed',
			);
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
			const logged = (await control(fixture.sandbox, 'GET', '/requests')).requests;
			expect(logged).toHaveLength(5);
		});

		it('with `hold`, keeps the connection open and unanswered until the client gives up', async () => {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'reset',
				hold: true,
				count: 1,
				path: '/organization',
			});
			const gaveUp = AbortSignal.timeout(300);
			const held = fetch(`${fixture.sandbox.baseUrl}/organization`, {
				headers: { Authorization: `Bearer ${LIVE_KEY}` },
				signal: gaveUp,
			});
			await expect(held).rejects.toThrow(/aborted|timeout/i);
			// the sandbox answers the next request as usual
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		});

		it('refuses an `after` over 10,000', async () => {
			const answer = await postFault({ kind: 'reset', count: 1, after: 10_001 });
			expect(answer.status).toBe(400);
			expect(answer.body.error.details[0].field).toBe('after');
		});
	});

	describe('slow_body', () => {
		it('answers 200 and its headers at once, then trickles the body until `seconds` have passed', async () => {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'slow_body',
				seconds: 3,
				count: 1,
				path: '/organization',
			});
			const sentAt = Date.now();

			const answer = await fetch(`${fixture.sandbox.baseUrl}/organization`, {
				headers: { Authorization: `Bearer ${LIVE_KEY}` },
			});
			const headersAfterMs = Date.now() - sentAt;
			const body = await answer.text();
			const bodyAfterMs = Date.now() - sentAt;

			expect(answer.status).toBe(200);
			expect(answer.headers.get('content-type')).toBe('application/json');
			expect(JSON.parse(body)).toEqual({});
			// the body came a byte a second: it ended well after the headers
			expect(bodyAfterMs - headersAfterMs).toBeGreaterThanOrEqual(1_500);
			expect(body).toBe('   {}');
			// spent: the next request is answered as usual
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		});

		it('stops trickling when the client gives up, and keeps answering', async () => {
			await control(fixture.sandbox, 'POST', '/faults', { kind: 'slow_body', count: 1 });
			const gaveUp = new AbortController();
			const answer = await fetch(`${fixture.sandbox.baseUrl}/organization`, {
				headers: { Authorization: `Bearer ${LIVE_KEY}` },
				signal: gaveUp.signal,
			});
			expect(answer.status).toBe(200);

			gaveUp.abort();

			await expect(answer.text()).rejects.toThrow(/abort/i);
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).status).toBe(200);
			const { faults } = await control(fixture.sandbox, 'GET', '/faults');
			expect(faults).toEqual([]);
		});

		it('takes 120 seconds by default and refuses more than 600', async () => {
			await control(fixture.sandbox, 'POST', '/faults', { kind: 'slow_body', count: 2 });
			const { faults } = await control(fixture.sandbox, 'GET', '/faults');
			expect(faults).toEqual([{ kind: 'slow_body', seconds: 120, remaining: 2, path: null }]);

			const tooLong = await postFault({ kind: 'slow_body', count: 1, seconds: 601 });
			expect(tooLong.status).toBe(400);
			expect(tooLong.body.error.details[0].field).toBe('seconds');
		});

		it('refuses `hold`, which only a late answer takes', async () => {
			const held = await postFault({ kind: 'slow_body', count: 1, hold: true });

			expect(held.status).toBe(400);
			expect(held.body.error.details).toEqual([{ field: 'hold', message: 'is not a known field' }]);
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([]);
		});
	});

	describe('late_answer', () => {
		/** Creates a member under a `late_answer` fault; resolves once the member is listed. */
		async function createListedBeforeAnswered(fault: Record<string, unknown>, name: string) {
			await control(fixture.sandbox, 'POST', '/faults', {
				kind: 'late_answer',
				count: 1,
				path: '/members',
				...fault,
			});
			let answered = false;
			const creating = api(fixture.sandbox, LIVE_KEY, 'POST', '/members', {
				business_name: name,
			}).finally(() => (answered = true));
			let listed: Array<{ id: string; business_name: string }> = [];
			while (!listed.some((member) => member.business_name === name)) {
				await new Promise((wake) => setTimeout(wake, 200));
				listed = (await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).body.data;
			}
			return { creating, listed, answered: () => answered };
		}

		it('does the write as usual and sends its answer only `seconds` later', async () => {
			const { creating, listed, answered } = await createListedBeforeAnswered(
				{ seconds: 3 },
				'Late Answer Staffing',
			);
			// the member was listed while its create was still unanswered
			expect(answered()).toBe(false);
			const created = await creating;
			expect(created.status).toBe(201);
			expect(listed.map((member) => member.id)).toContain(created.body.id);
			const { faults } = await control(fixture.sandbox, 'GET', '/faults');
			expect(faults).toEqual([]);
		});

		it('with `hold`, does the write and sends the answer only when released', async () => {
			const { creating, answered } = await createListedBeforeAnswered(
				{ hold: true },
				'Held Answer Staffing',
			);
			// unreleased, the answer does not come
			await new Promise((wake) => setTimeout(wake, 1_500));
			expect(answered()).toBe(false);
			// the next request under the path is not held
			expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).status).toBe(200);

			expect(await control(fixture.sandbox, 'POST', '/faults/release')).toEqual({ released: 1 });
			expect((await creating).status).toBe(201);
			expect(await control(fixture.sandbox, 'POST', '/faults/release')).toEqual({ released: 0 });
		});

		it('refuses `seconds` beside `hold`: a held answer waits for its release', async () => {
			const both = await postFault({ kind: 'late_answer', count: 1, hold: true, seconds: 5 });

			expect(both.status).toBe(400);
			expect(both.body.error.details).toEqual([
				{
					field: 'seconds',
					message: 'cannot be given with hold: a held answer waits for its release',
				},
			]);
			expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toEqual([]);
		});
	});
});
