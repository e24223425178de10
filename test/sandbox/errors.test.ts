import { randomUUID } from 'node:crypto';

import { api } from '../../harness/sandbox-api';
import { createCustomer, createMember } from '../support/sandbox-records';
import { expectError } from '../support/sandbox-shapes';
import { GLOBEX_KEY, LIVE_KEY, READONLY_KEY, TEST_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';

const fixture = useSandbox();

function fields(answer: { body: any }): string[] {
	return answer.body.error.details.map((detail: { field: string }) => detail.field);
}

describe('401 unauthorized', () => {
	it('answers 401 without a key, with an unknown key and with a non-Bearer scheme', async () => {
		expectError(await api(fixture.sandbox, null, 'GET', '/organization'), 401, 'unauthorized');
		expectError(
			await api(fixture.sandbox, 'wfm_live_nobody', 'GET', '/members'),
			401,
			'unauthorized',
		);
		const basic = await fetch(`${fixture.sandbox.baseUrl}/organization`, {
			headers: { authorization: `Basic ${Buffer.from(`${LIVE_KEY}:`).toString('base64')}` },
		});
		expect(basic.status).toBe(401);
	});

	it('checks the key before validating the body', async () => {
		expectError(
			await api(fixture.sandbox, null, 'POST', '/members', { nope: true }),
			401,
			'unauthorized',
		);
	});
});

describe('403 forbidden', () => {
	it('names the missing scope', async () => {
		const answer = await api(fixture.sandbox, READONLY_KEY, 'POST', '/members', {
			business_name: 'X',
		});
		expectError(answer, 403, 'insufficient_scope');
		expect(answer.body.error.message).toContain('members:write');

		const noScope = await api(fixture.sandbox, 'wfm_live_acme_noscope', 'GET', '/organization');
		expectError(noScope, 403, 'insufficient_scope');
		expect(noScope.body.error.message).toContain('organization:read');

		const webhooksOnly = await api(fixture.sandbox, 'wfm_live_acme_webhooks', 'GET', '/customers');
		expect(webhooksOnly.body.error.message).toContain('customers:read');
	});

	it('names the inactive module', async () => {
		for (const [method, path] of [
			['GET', '/customers'],
			['POST', '/sites'],
			['GET', `/sites/${randomUUID()}`],
		]) {
			const answer = await api(
				fixture.sandbox,
				'wfm_live_initech_all',
				method,
				path,
				method === 'POST' ? {} : undefined,
			);
			expectError(answer, 403, 'module_inactive');
			expect(answer.body.error.message).toContain('customers');
		}
		const members = await api(fixture.sandbox, 'wfm_live_initech_all', 'GET', '/members');
		expect(members.status).toBe(200);
	});
});

describe('404 not found', () => {
	it('answers 404 for unknown ids and for ids of another organization or mode', async () => {
		const member = await createMember(fixture.sandbox);
		const customer = await createCustomer(fixture.sandbox);
		const site = (
			await api(fixture.sandbox, LIVE_KEY, 'POST', '/sites', {
				customer_id: customer.id,
				name: 'S',
			})
		).body;
		const endpoint = (
			await api(fixture.sandbox, LIVE_KEY, 'POST', '/webhook-endpoints', {
				url: 'https://hooks.example.com/wfm',
				events: ['*'],
			})
		).body;
		const paths = [
			['GET', `/members/${member.id}`],
			['PATCH', `/members/${member.id}`],
			['POST', `/members/${member.id}/verify`],
			['POST', `/members/${member.id}/deactivate`],
			['GET', `/customers/${customer.id}`],
			['PATCH', `/customers/${customer.id}`],
			['GET', `/sites/${site.id}`],
			['PATCH', `/sites/${site.id}`],
			['GET', `/webhook-endpoints/${endpoint.id}`],
			['PATCH', `/webhook-endpoints/${endpoint.id}`],
			['DELETE', `/webhook-endpoints/${endpoint.id}`],
			['POST', `/webhook-endpoints/${endpoint.id}/roll-secret`],
			['POST', `/webhook-endpoints/${endpoint.id}/test`],
		];
		for (const key of [GLOBEX_KEY, TEST_KEY]) {
			for (const [method, path] of paths) {
				const answer = await api(
					fixture.sandbox,
					key,
					method,
					path,
					method === 'GET' || method === 'DELETE' ? undefined : {},
				);
				expect({ key, method, path, status: answer.status }).toEqual({
					key,
					method,
					path,
					status: 404,
				});
				expect(answer.body.error.code).toBe('not_found');
			}
		}
		const unknown = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members/${randomUUID()}`);
		expectError(unknown, 404, 'not_found');
		const redeliver = await api(
			fixture.sandbox,
			LIVE_KEY,
			'POST',
			`/webhook-deliveries/${randomUUID()}/redeliver`,
		);
		expectError(redeliver, 404, 'not_found');
		// still there for its owner
		expect(
			(await api(fixture.sandbox, LIVE_KEY, 'GET', `/webhook-endpoints/${endpoint.id}`)).status,
		).toBe(200);
	});

	it('answers 404 in the same shape for unknown routes', async () => {
		expectError(await api(fixture.sandbox, LIVE_KEY, 'GET', '/shifts'), 404, 'not_found');
	});
});

describe('400 validation', () => {
	const validationCases: Array<[string, string, string, unknown, string[]]> = [
		['member without business_name', 'POST', '/members', {}, ['business_name']],
		[
			'member with empty business_name',
			'POST',
			'/members',
			{ business_name: '' },
			['business_name'],
		],
		[
			'member capacity below 0',
			'POST',
			'/members',
			{ business_name: 'A', capacity: -1 },
			['capacity'],
		],
		[
			'member capacity above the maximum',
			'POST',
			'/members',
			{ business_name: 'A', capacity: 9007199254740992 },
			['capacity'],
		],
		[
			'member capacity not an integer',
			'POST',
			'/members',
			{ business_name: 'A', capacity: 1.5 },
			['capacity'],
		],
		[
			'member capacity as a string',
			'POST',
			'/members',
			{ business_name: 'A', capacity: '3' },
			['capacity'],
		],
		[
			'member business_name as a number',
			'POST',
			'/members',
			{ business_name: 42 },
			['business_name'],
		],
		[
			'member unknown field',
			'POST',
			'/members',
			{ business_name: 'A', nickname: 'x' },
			['nickname'],
		],
		[
			'member contact unknown field',
			'POST',
			'/members',
			{ business_name: 'A', contact: { fax: '1' } },
			['contact.fax'],
		],
		[
			'member contact email null on create',
			'POST',
			'/members',
			{ business_name: 'A', contact: { email: null } },
			['contact.email'],
		],
		['member body not an object', 'POST', '/members', [], ['body']],
		['member body not JSON', 'POST', '/members', '{"business_name":', ['body']],
		[
			'several fields at once',
			'POST',
			'/members',
			{ capacity: -5, display_name: 7 },
			['business_name', 'capacity', 'display_name'],
		],
		['customer without name', 'POST', '/customers', { status: 'active' }, ['name']],
		['customer empty name', 'POST', '/customers', { name: '' }, ['name']],
		['customer unknown status', 'POST', '/customers', { name: 'C', status: 'vip' }, ['status']],
		[
			'customer billing_rate as string',
			'POST',
			'/customers',
			{ name: 'C', billing_rate: '40' },
			['billing_rate'],
		],
		['site without customer_id and name', 'POST', '/sites', {}, ['customer_id', 'name']],
		[
			'site malformed customer_id',
			'POST',
			'/sites',
			{ customer_id: 'abc', name: 'S' },
			['customer_id'],
		],
		[
			'site orientation_required as string',
			'POST',
			'/sites',
			{ customer_id: randomUUID(), name: 'S', orientation_required: 'yes' },
			['orientation_required'],
		],
		['endpoint without url and events', 'POST', '/webhook-endpoints', {}, ['url', 'events']],
		[
			'endpoint http url',
			'POST',
			'/webhook-endpoints',
			{ url: 'http://hooks.example.com/x', events: ['*'] },
			['url'],
		],
		[
			'endpoint loopback http url while insecure urls are off',
			'POST',
			'/webhook-endpoints',
			{ url: 'http://127.0.0.1:5678/webhook', events: ['*'] },
			['url'],
		],
		[
			'endpoint url not a URL',
			'POST',
			'/webhook-endpoints',
			{ url: 'hooks', events: ['*'] },
			['url'],
		],
		[
			'endpoint empty events',
			'POST',
			'/webhook-endpoints',
			{ url: 'https://h.example.com', events: [] },
			['events'],
		],
		[
			'endpoint empty event type',
			'POST',
			'/webhook-endpoints',
			{ url: 'https://h.example.com', events: [''] },
			['events[0]'],
		],
		[
			'endpoint unknown event type',
			'POST',
			'/webhook-endpoints',
			{ url: 'https://h.example.com', events: ['member.created', 'member.exploded'] },
			['events[1]'],
		],
		[
			'endpoint asterisk mixed with types',
			'POST',
			'/webhook-endpoints',
			{ url: 'https://h.example.com', events: ['*', 'member.created'] },
			['events'],
		],
		['member list limit 0', 'GET', '/members?limit=0', undefined, ['limit']],
		['member list limit 101', 'GET', '/members?limit=101', undefined, ['limit']],
		['member list limit not a number', 'GET', '/members?limit=ten', undefined, ['limit']],
		['member list unknown status', 'GET', '/members?status=retired', undefined, ['status']],
		[
			'member list is_verified not boolean',
			'GET',
			'/members?is_verified=yes',
			undefined,
			['is_verified'],
		],
		['member list unknown parameter', 'GET', '/members?sort=name', undefined, ['sort']],
		['member list foreign cursor', 'GET', '/members?cursor=bm9wZQ', undefined, ['cursor']],
		['site list malformed customer_id', 'GET', '/sites?customer_id=42', undefined, ['customer_id']],
		[
			'deliveries list unknown status',
			'GET',
			'/webhook-deliveries?status=lost',
			undefined,
			['status'],
		],
		['malformed member id', 'GET', '/members/not-a-uuid', undefined, ['id']],
		['malformed endpoint id', 'DELETE', '/webhook-endpoints/123', undefined, ['id']],
		[
			'verify with a body field',
			'POST',
			`/members/${randomUUID()}/verify`,
			{ force: true },
			['force'],
		],
	];

	it.each(validationCases)(
		'%s → 400 naming the field',
		async (_label, method, path, body, expectedFields) => {
			const answer = await api(fixture.sandbox, LIVE_KEY, method, path, body);
			expectError(answer, 400, 'validation_failed');
			expect(fields(answer).sort()).toEqual([...expectedFields].sort());
			for (const field of expectedFields) expect(answer.body.error.message).toContain(field);
		},
	);

	it('rejects PATCH values the spec does not allow', async () => {
		const member = await createMember(fixture.sandbox);
		const customer = await createCustomer(fixture.sandbox);
		const cases: Array<[string, unknown, string]> = [
			[`/members/${member.id}`, { business_name: '' }, 'business_name'],
			[`/members/${member.id}`, { business_name: null }, 'business_name'],
			[`/members/${member.id}`, { capacity: null }, 'capacity'],
			[`/members/${member.id}`, { status: 'active' }, 'status'],
			[`/customers/${customer.id}`, { name: null }, 'name'],
			[`/customers/${customer.id}`, { status: 'gone' }, 'status'],
		];
		for (const [path, body, field] of cases) {
			const answer = await api(fixture.sandbox, LIVE_KEY, 'PATCH', path, body);
			expectError(answer, 400, 'validation_failed');
			expect(fields(answer)).toEqual([field]);
		}
		const unchanged = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members/${member.id}`);
		expect(unchanged.body).toEqual(member);
	});

	it('sends nothing to the store when validation fails', async () => {
		await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', { business_name: '' });
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).body.data).toEqual([]);
	});
});
