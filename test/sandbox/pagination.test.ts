import { api, control } from '../../harness/sandbox-api';
import { MEMBER_SHAPE, expectList, expectShape } from '../support/sandbox-shapes';
import { LIVE_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';

const fixture = useSandbox();
const TOTAL = 250;

/** Walks a list with the given page size, checking every page's envelope on the way. */
async function walk(path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
	const ids: string[] = [];
	let cursor: string | null = null;
	let pages = 0;
	do {
		const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
		const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', `${path}?${query}`);
		expect(answer.status).toBe(200);
		expectList(answer.body, MEMBER_SHAPE);
		pages += 1;
		const { data, has_more, next_cursor } = answer.body;
		expect(data.length).toBeLessThanOrEqual(limit);
		if (has_more) {
			expect(data.length).toBe(limit);
			expect(typeof next_cursor).toBe('string');
		} else {
			expect(next_cursor).toBeNull();
		}
		ids.push(...data.map((member: { id: string }) => member.id));
		cursor = next_cursor;
	} while (cursor !== null);
	return { ids, pages };
}

describe('cursor pagination over 250 members', () => {
	let createdIds: string[];

	beforeEach(async () => {
		// Seeded members share one created_at: the order must still be strict (creation order).
		await control(fixture.sandbox, 'POST', '/seed/members', {
			organization: 'acme',
			mode: 'live',
			count: 200,
		});
		for (let index = 0; index < TOTAL - 200; index++) {
			await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', {
				business_name: `Member ${index}`,
			});
		}
		const all = await walk('/members', 100);
		createdIds = all.ids;
	});

	it.each([1, 25, 100])(
		'page size %i: no gaps, no duplicates, newest first, clean end',
		async (limit) => {
			const { ids, pages } = await walk('/members', limit);
			expect(ids).toHaveLength(TOTAL);
			expect(new Set(ids).size).toBe(TOTAL);
			expect(pages).toBe(Math.ceil(TOTAL / limit));
			expect(ids).toEqual(createdIds);
		},
	);

	it('lists newest first', async () => {
		const newest = await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', {
			business_name: 'Newest',
		});
		const first = await api(fixture.sandbox, LIVE_KEY, 'GET', '/members?limit=3');
		expect(first.body.data[0].id).toBe(newest.body.id);
		expect(first.body.data[1].business_name).toBe('Member 49');
		expect((await walk('/members', 100)).ids).toEqual([newest.body.id, ...createdIds]);
	});

	it('uses 25 as the default page size', async () => {
		const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', '/members');
		expect(answer.body.data).toHaveLength(25);
		expect(answer.body.has_more).toBe(true);
		for (const member of answer.body.data) expectShape(member, MEMBER_SHAPE);
	});

	it('pages through a filtered list with the same guarantees', async () => {
		const verified: string[] = [];
		for (const id of createdIds.filter((_, index) => index % 7 === 0)) {
			await api(fixture.sandbox, LIVE_KEY, 'POST', `/members/${id}/verify`, {});
			verified.push(id);
		}
		const listed: string[] = [];
		let cursor: string | null = null;
		do {
			const answer: any = await api(
				fixture.sandbox,
				LIVE_KEY,
				'GET',
				`/members?is_verified=true&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
			);
			expect(answer.body.data.length).toBeLessThanOrEqual(10);
			listed.push(...answer.body.data.map((member: { id: string }) => member.id));
			cursor = answer.body.next_cursor;
		} while (cursor);
		expect(listed).toEqual(verified);
	});

	it('ends cleanly when the last page is exactly full', async () => {
		const first = await api(fixture.sandbox, LIVE_KEY, 'GET', '/members?limit=100');
		const second = await api(
			fixture.sandbox,
			LIVE_KEY,
			'GET',
			`/members?limit=100&cursor=${first.body.next_cursor}`,
		);
		const third = await api(
			fixture.sandbox,
			LIVE_KEY,
			'GET',
			`/members?limit=50&cursor=${second.body.next_cursor}`,
		);
		expect(third.body).toMatchObject({ has_more: false, next_cursor: null });
		expect(third.body.data).toHaveLength(50);
	});
});
