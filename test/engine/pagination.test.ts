import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../support/sandbox-fixture';
import type { SandboxFixture } from '../support/sandbox-fixture';

const sandbox = useSandbox();
// Two requests a second: the third page of a Return All is rate limited.
const rateLimitedSandbox = useSandbox({ rateLimit: { requests: 2, perSeconds: 1 } });

const RETRY_ADVICE = 'Retry later; if it persists, contact the provider.';

async function listMembers(fixture: SandboxFixture, paging: IDataObject) {
	const result = await fixture.runOperation('member', 'getAll', paging);
	const requests = await fixture.requests();
	return { ...result, requests, pageSizes: requests.map((request) => Number(request.query.limit)) };
}

describe('Get Many paging', () => {
	describe('over 250 members', () => {
		beforeEach(async () => {
			await sandbox.control.seedMembers(250);
			await sandbox.clearRequests();
		});

		it('Return All reads pages of 100: 3 requests, every member once, newest first', async () => {
			const { items, pageSizes, requests } = await listMembers(sandbox, { returnAll: true });

			expect(items).toHaveLength(250);
			expect(new Set(items.map((item) => item.json.id)).size).toBe(250);
			expect(items[0].json.business_name).toBe('Seeded Member 250');
			expect(items[249].json.business_name).toBe('Seeded Member 1');
			expect(pageSizes).toEqual([100, 100, 100]);
			expect(requests[0].query.cursor).toBeUndefined();
			expect(new Set(requests.slice(1).map((request) => request.query.cursor)).size).toBe(2);
			expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		});

		it.each([
			[1, [1]],
			[100, [100]],
			[150, [100, 50]],
			[250, [100, 100, 50]],
			[300, [100, 100, 100]],
		])('Limit %i asks for pages of %j', async (limit, expectedPageSizes) => {
			const { items, pageSizes } = await listMembers(sandbox, { returnAll: false, limit });

			expect(items).toHaveLength(Math.min(limit, 250));
			expect(pageSizes).toEqual(expectedPageSizes);
		});
	});

	it('needs no extra request when the records end exactly at a page boundary', async () => {
		await sandbox.control.seedMembers(200);
		await sandbox.clearRequests();

		const { items, pageSizes } = await listMembers(sandbox, { returnAll: true });

		expect(items).toHaveLength(200);
		expect(pageSizes).toEqual([100, 100]);
	});

	it('waits out a rate limit in the middle of Return All and goes on from the same page', async () => {
		await rateLimitedSandbox.control.seedMembers(250);
		await rateLimitedSandbox.clearRequests();

		const { items, error, requests } = await listMembers(rateLimitedSandbox, { returnAll: true });

		expect(error).toBeUndefined();
		expect(new Set(items.map((item) => item.json.id)).size).toBe(250);
		const cursors = requests.map((request) => request.query.cursor);
		expect(requests).toHaveLength(4);
		expect(cursors[0]).toBeUndefined();
		// The third page was refused once and asked again with its own cursor, not from page 1.
		expect(cursors[3]).toBe(cursors[2]);
		expect(cursors.slice(1).every((cursor) => typeof cursor === 'string')).toBe(true);
	});

	it('stops with an error after 2 requests when the API hands back the cursor it was sent', async () => {
		await sandbox.control.seedMembers(250);
		await sandbox.clearRequests();
		// More repeats than the node should ever ask for: it has to stop on its own.
		await sandbox.injectFault({ kind: 'repeat_cursor', count: 10, path: '/members' });

		const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: 'The API returned the same page cursor twice while listing /members',
			description: `Stopped after 200 records to avoid reading the same page forever. ${RETRY_ADVICE}`,
			errorResponse: { next_cursor: requests[1].query.cursor },
		});
		expect(items).toEqual([]);
		expect(requests).toHaveLength(2);
		expect(requests[0].query.cursor).toBeUndefined();
		expect(requests[1].query.cursor).toEqual(expect.any(String));
	});

	describe('when the API breaks its own paging', () => {
		beforeEach(async () => {
			await sandbox.control.seedMembers(250);
			await sandbox.clearRequests();
		});

		it.each([
			['no_cursor', null],
			['empty_cursor', ''],
			['missing_cursor', null],
		] as const)(
			'%s: stops with an error naming the records read when has_more comes without a usable cursor',
			async (variant, cursor) => {
				await sandbox.injectFault({ kind: 'broken_page', variant, count: 1 });

				const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

				expect(error).toMatchObject({
					name: 'NodeApiError',
					message:
						'The API said more records follow but gave no cursor to read them while listing /members',
					description: `Stopped after 100 records because the rest cannot be asked for. ${RETRY_ADVICE}`,
					errorResponse: { has_more: true, next_cursor: cursor },
				});
				expect(items).toEqual([]);
				expect(requests).toHaveLength(1);
			},
		);

		it('stops a run of 10 empty pages that each promise more, with an error', async () => {
			await sandbox.control.seedMembers(1_000);
			await sandbox.clearRequests();
			// Empty pages for as long as the node keeps asking: it has to stop on its own.
			await sandbox.injectFault({ kind: 'broken_page', variant: 'empty_page', count: 10_000 });

			const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: 'The API returned 10 empty pages in a row while listing /members',
				description: `Stopped after 0 records rather than follow empty pages without end. ${RETRY_ADVICE}`,
				errorResponse: { next_cursor: expect.any(String) },
			});
			expect(items).toEqual([]);
			expect(requests).toHaveLength(10);
		});

		it('counts only empty pages in a row: a page with records starts the count again', async () => {
			await sandbox.control.seedMembers(950); // 1,200 with the 250 above
			await sandbox.clearRequests();
			await sandbox.injectFault({ kind: 'broken_page', variant: 'empty_page', count: 9 });

			const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

			expect(error).toBeUndefined();
			// The 9 empty pages skipped the 900 newest members; 3 pages of records follow.
			expect(items).toHaveLength(300);
			expect(requests).toHaveLength(12);
		});

		it.each([
			[1, [1]],
			[150, [100, 50]],
		])(
			'Limit %i returns that many when the API answers more records than each page asked',
			async (limit, expectedPageSizes) => {
				await sandbox.injectFault({ kind: 'broken_page', variant: 'over_limit', count: 10 });

				const { items, error, pageSizes } = await listMembers(sandbox, { returnAll: false, limit });

				expect(error).toBeUndefined();
				expect(items).toHaveLength(limit);
				expect(pageSizes).toEqual(expectedPageSizes);
			},
		);

		it.each([
			['not_json', 'a body that is not a JSON object'],
			['no_data', 'a page without its "data" list'],
			['no_has_more', 'a page without its "has_more" flag'],
		] as const)('turns a 200 with %s into an error saying so', async (variant, what) => {
			await sandbox.injectFault({ kind: 'broken_page', variant, count: 1 });

			const { error } = await listMembers(sandbox, { returnAll: true });

			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: `The Workforce Management API answered GET /members with ${what}`,
			});
			expect(JSON.stringify(error)).not.toContain('TypeError');
		});

		it('resumes Return All from the page whose connection was reset, not from page 1', async () => {
			await sandbox.injectFault({ kind: 'reset', count: 1, after: 1, path: '/members' });

			const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

			expect(error).toBeUndefined();
			expect(new Set(items.map((item) => item.json.id)).size).toBe(250);
			const cursors = requests.map((request) => request.query.cursor);
			expect(requests).toHaveLength(4);
			expect(cursors[0]).toBeUndefined();
			expect(cursors[1]).toEqual(expect.any(String));
			expect(cursors[2]).toBe(cursors[1]);
		});

		it('gives up after 3 attempts at a page whose connection keeps being reset, saying so', async () => {
			await sandbox.injectFault({ kind: 'reset', count: 10, after: 1, path: '/members' });

			const { items, error, requests } = await listMembers(sandbox, { returnAll: true });

			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: `Could not reach the Workforce Management API at ${sandbox.sandbox.baseUrl}`,
				description: expect.stringContaining('Tried GET /members 3 times'),
			});
			expect(items).toEqual([]);
			expect(requests).toHaveLength(4);
			// backing off: half a second, then a second
			const [, first, second, third] = requests.map((request) => Date.parse(request.at));
			expect(second - first).toBeGreaterThanOrEqual(490);
			expect(third - second).toBeGreaterThanOrEqual(990);
		});
	});
});
