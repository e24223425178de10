import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../support/sandbox-fixture';
import type { SandboxFixture } from '../support/sandbox-fixture';

const sandbox = useSandbox();
// Two requests a second: the third page of a Return All is rate limited.
const rateLimitedSandbox = useSandbox({ rateLimit: { requests: 2, perSeconds: 1 } });

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
			description: expect.stringContaining('Stopped after 200 records'),
		});
		expect(items).toEqual([]);
		expect(requests).toHaveLength(2);
		expect(requests[0].query.cursor).toBeUndefined();
		expect(requests[1].query.cursor).toEqual(expect.any(String));
	});
});
