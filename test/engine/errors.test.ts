import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId, runNode } from '../support/engine/harness';
import type { WorkforceCredentials } from '../support/engine/harness';
import { TriggerHarness } from '../support/engine/trigger-harness';
import { ElsewhereServer, OversizedApi, RedirectingApi } from '../support/misleading-api';
import { eventually } from '../../harness/poll';
import { useSandbox } from '../support/sandbox-fixture';
import { LIVE_KEY, READONLY_KEY } from '../../harness/constants';

const sandbox = useSandbox();

const INITECH_KEY = 'wfm_live_initech_all';
const UNKNOWN_ID = '0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192';

async function run(
	parameters: INodeParameters,
	options: {
		credentials?: WorkforceCredentials;
		inputItems?: IDataObject[];
		continueOnFail?: boolean;
	} = {},
) {
	return await runNode({
		parameters,
		credentials: options.credentials ?? sandbox.credentials(),
		inputItems: options.inputItems,
		continueOnFail: options.continueOnFail,
	});
}

const getOrganization = { resource: 'organization', operation: 'get' };
const createMember = { resource: 'member', operation: 'create', businessName: 'Ada Care' };

describe('API errors a user can act on', () => {
	it('401: points at the API key, naming the instance', async () => {
		const { error } = await run(getOrganization, {
			credentials: sandbox.credentials('wfm_live_revoked'),
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '401',
			message: `The Workforce Management API at ${new URL(sandbox.sandbox.baseUrl).host} rejected this API key`,
		});
		expect(error?.description).toContain('Copy the key again from the developer area');
		expect(JSON.stringify(error)).not.toContain('wfm_live_revoked');
		expect(await sandbox.requests()).toHaveLength(1);
	});

	it('403: names the scope the operation needs', async () => {
		const { error } = await run(createMember, { credentials: sandbox.credentials(READONLY_KEY) });

		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '403',
			message: 'The API key lacks the scope "members:write" this operation needs',
		});
	});

	it('403: names the module that must be active', async () => {
		const { error } = await run(
			{ resource: 'site', operation: 'getAll', returnAll: true },
			{ credentials: sandbox.credentials(INITECH_KEY) },
		);

		expect(error).toMatchObject({
			httpCode: '403',
			message: 'The customers module is not active for this organization',
		});
	});

	it('404: says the record does not exist in this organization', async () => {
		const { error } = await run({
			resource: 'customer',
			operation: 'get',
			customerId: byId(UNKNOWN_ID),
		});

		expect(error).toMatchObject({
			httpCode: '404',
			message: `The requested record does not exist in this organization (GET /customers/${UNKNOWN_ID})`,
		});
		expect(error?.description).toContain('live or test');
		expect(JSON.stringify(error)).not.toContain('wfm_live_acme_all');
	});

	it("400: passes on the API's validation message with the field", async () => {
		const { error } = await run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://example.com/hook',
			events: '={{ ["member.exploded"] }}',
		});

		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(error?.message).toMatch(/^The API refused the request: events\[0\]: /);
	});

	it('5xx: reports the status of the failed call', async () => {
		await sandbox.injectFault({ status: 503, count: 1 });

		const { error } = await run(getOrganization);

		expect(error).toMatchObject({
			httpCode: '503',
			message: 'The Workforce Management API failed with status 503 (GET /organization)',
		});
	});

	it('a user name and password in the Base URL never show in the error', async () => {
		const { error } = await run(getOrganization, {
			credentials: {
				apiKey: 'wfm_live_acme_all',
				baseUrl: 'http://admin:s3cret@127.0.0.1:9/api/v1',
			},
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: 'Could not reach the Workforce Management API at http://***@127.0.0.1:9/api/v1',
		});
		expect(JSON.stringify(error)).not.toContain('s3cret');
		expect(String(error?.stack)).not.toContain('s3cret');
	});

	it('an unreachable Base URL is named in the error', async () => {
		const { error } = await run(getOrganization, {
			credentials: { apiKey: 'wfm_live_acme_all', baseUrl: 'http://127.0.0.1:9/api/v1' },
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: 'Could not reach the Workforce Management API at http://127.0.0.1:9/api/v1',
		});
	});

	it('does not send a create again after a reset connection: it may have been applied', async () => {
		await sandbox.injectFault({ kind: 'reset', count: 10, path: '/members' });

		const { error } = await run(createMember);

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: `Could not reach the Workforce Management API at ${sandbox.sandbox.baseUrl}`,
			description: expect.stringMatching(/^Sent POST \/members once\. /),
		});
		expect(await sandbox.requests()).toHaveLength(1);
	});
});

describe('a Base URL that would send the API key in the clear', () => {
	it('is refused before any request, naming the field and the item', async () => {
		// a documentation address (RFC 5737): a request sent there would wait for its deadline
		const { error } = await run(getOrganization, {
			credentials: { apiKey: 'wfm_live_acme_all', baseUrl: 'http://192.0.2.10/api/v1' },
		});

		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: expect.stringMatching(
				/^The Base URL starts with http:\/\/, so the API key would travel unencrypted to 192\.0\.2\.10\. Use the https:\/\/ address/,
			),
			description: 'Correct the Base URL in the Workforce Management API credential.',
			context: { itemIndex: 0 },
		});
	});

	it('is accepted for this machine, by name', async () => {
		const baseUrl = sandbox.sandbox.baseUrl.replace('127.0.0.1', 'localhost');

		const { items, error } = await run(getOrganization, {
			credentials: { apiKey: 'wfm_live_acme_all', baseUrl },
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ name: 'Acme Staffing' });
	});
});

describe('an API that sends its answer too slowly', () => {
	it('is abandoned at the deadline with an error saying so, without waiting for the whole body', async () => {
		// the body would take 120 s; the deadline is 30 s from sending
		await sandbox.injectFault({ kind: 'slow_body', seconds: 120, count: 1, path: '/organization' });
		const startedAt = Date.now();

		const { error } = await run(getOrganization);

		expect(Date.now() - startedAt).toBeLessThan(100_000);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: `The Workforce Management API at ${sandbox.sandbox.baseUrl} did not answer GET /organization within 30 seconds`,
			description: expect.stringMatching(
				/^The node stops waiting 30 seconds after sending a request, also when part of the answer has come .*Check that the Base URL/,
			),
		});
		// not sent again: another 30 s would follow
		expect(await sandbox.requests()).toHaveLength(1);
	}, 60_000);
});

describe('an operation the node does not have (a workflow from another version)', () => {
	it.each([
		['member', 'archive'],
		['member', 'toString'],
	])('resource %j, operation %j: says so, before any request', async (resource, operation) => {
		const { error } = await run({ resource, operation });

		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: `The operation "${operation}" is not supported for resource "${resource}"`,
		});
		expect(await sandbox.requests()).toEqual([]);
	});
});

describe('rate limiting', () => {
	it('retries a 429 after Retry-After and succeeds', async () => {
		await sandbox.injectFault({ status: 429, count: 2, retry_after: 1 });

		const { items, error } = await run(getOrganization);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ slug: 'acme' });
		expect(await sandbox.requests()).toHaveLength(3);
	});

	it('gives up after 5 attempts with an error saying so', async () => {
		await sandbox.injectFault({ status: 429, count: 10, retry_after: 1 });

		const { error } = await run(getOrganization);

		expect(error).toMatchObject({
			httpCode: '429',
			message: 'The Workforce Management API is still rate limiting this key',
			description: expect.stringContaining(
				'Sent GET /organization 5 times and waited 4 s in all; the API last asked to wait 1 s.',
			),
		});
		expect(await sandbox.requests()).toHaveLength(5);
	});

	it('does not wait when Retry-After exceeds the total wait allowed, and says so', async () => {
		await sandbox.injectFault({ status: 429, count: 1, retry_after: 3600 });

		const { error } = await run(getOrganization);

		expect(error).toMatchObject({ httpCode: '429' });
		expect(error?.description).toContain(
			'Sent GET /organization once and waited 0 s; the API asked to wait 3600 s, longer than the 60 s the node waits per request.',
		);
		expect(error?.description).not.toContain('retried');
		expect(await sandbox.requests()).toHaveLength(1);
	});

	it('waits at least a second between attempts when Retry-After is 0', async () => {
		await sandbox.injectFault({ status: 429, count: 2, retry_after: 0 });

		const { error } = await run(getOrganization);

		expect(error).toBeUndefined();
		const times = (await sandbox.requests()).map((request) => Date.parse(request.at));
		expect(times).toHaveLength(3);
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(990);
		expect(times[2] - times[1]).toBeGreaterThanOrEqual(990);
	});
});

describe('Continue On Fail', () => {
	it('outputs an error item for each failed input item and carries on', async () => {
		const { items, error } = await run(
			{ resource: 'member', operation: 'create', businessName: '={{ $json.name }}' },
			{
				continueOnFail: true,
				inputItems: [{ name: 'First' }, { name: '' }, { name: 'Third' }],
			},
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.business_name ?? item.json.error)).toEqual([
			'First',
			'The "Business Name" field must not be empty (item 1)',
			'Third',
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(await sandbox.requests()).toHaveLength(2);
	});

	it('turns an API error into an error item', async () => {
		const { items } = await run(
			{ resource: 'member', operation: 'get', memberId: byId('={{ $json.id }}') },
			{ continueOnFail: true, inputItems: [{ id: UNKNOWN_ID }] },
		);

		expect(items).toEqual([
			{
				json: {
					error: `The requested record does not exist in this organization (GET /members/${UNKNOWN_ID})`,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('without it, stops at the failing item and names it', async () => {
		const { error } = await run(
			{ resource: 'member', operation: 'get', memberId: byId('={{ $json.id }}') },
			{ inputItems: [{ id: UNKNOWN_ID }] },
		);

		expect(error).toMatchObject({ name: 'NodeApiError', context: { itemIndex: 0 } });
	});
});

/*
 * The contract behind n8n's node-operation-error-itemindex rule, checked at run time: the error
 * that stops the node names the input item that failed, whether our own validation raised it or
 * the shared transport (which has no item at hand; the router marks it). Items other than the
 * first, so a default of 0 cannot pass.
 */
describe('the error that stops the node carries the failing item', () => {
	it('a validation error on item 1', async () => {
		const { error, items } = await run(
			{ resource: 'member', operation: 'create', businessName: '={{ $json.name }}' },
			{ inputItems: [{ name: 'First' }, { name: '' }, { name: 'Third' }] },
		);

		expect(items).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: 'The "Business Name" field must not be empty (item 1)',
			context: { itemIndex: 1 },
		});
		expect(await sandbox.requests()).toHaveLength(1);
	});

	it('an API error (404 from the transport) on item 2', async () => {
		const member = await sandbox.api<{ id: string }>('POST', '/members', {
			business_name: 'Ada Care',
		});
		await sandbox.clearRequests();

		const { error } = await run(
			{ resource: 'member', operation: 'get', memberId: byId('={{ $json.id }}') },
			{ inputItems: [{ id: member.id }, { id: member.id }, { id: UNKNOWN_ID }] },
		);

		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 2 },
		});
		expect(await sandbox.requests()).toHaveLength(3);
	});
});

describe('the API key goes to the Base URL\'s origin and nowhere else', () => {
	let elsewhere: ElsewhereServer;
	let api: RedirectingApi;

	beforeEach(async () => {
		elsewhere = await new ElsewhereServer().start();
	});
	afterEach(async () => {
		await api.close();
		await elsewhere.close();
	});

	async function redirectingElsewhere(status: number): Promise<RedirectingApi> {
		api = await new RedirectingApi(status, (path) => `${elsewhere.origin}${path}`).start();
		return api;
	}

	it.each([
		[302, getOrganization, 'GET', '/organization'],
		[307, createMember, 'POST', '/members'],
	])(
		'a %i to another host is not followed: the error names where it pointed',
		async (status, parameters, method, path) => {
			await redirectingElsewhere(status);

			const { items, error } = await run(parameters, {
				credentials: { apiKey: LIVE_KEY, baseUrl: api.baseUrl },
			});

			expect(elsewhere.received).toEqual([]);
			expect(items).toEqual([]);
			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: `The Workforce Management API at ${api.baseUrl} answered ${method} ${path} with a redirect to ${elsewhere.origin}/api/v1${path}; check the Base URL`,
				description: expect.stringContaining('The node does not follow redirects'),
			});
			expect(api.requests).toBe(1);
		},
	);

	it("the trigger's activation does not follow one either", async () => {
		await redirectingElsewhere(302);
		const trigger = new TriggerHarness({
			parameters: { events: ['member.created'] },
			credentials: { apiKey: LIVE_KEY, baseUrl: api.baseUrl },
		});

		await expect(trigger.activate()).rejects.toThrow(
			`answered GET /webhook-endpoints with a redirect to ${elsewhere.origin}/api/v1/webhook-endpoints`,
		);
		expect(elsewhere.received).toEqual([]);
	});

	it('a redirect loop ends with an error naming the API', async () => {
		api = await new RedirectingApi(302, (path, self) => `${self.origin}${path}`).start();

		const { error } = await run(getOrganization, {
			credentials: { apiKey: LIVE_KEY, baseUrl: api.baseUrl },
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			message: expect.stringContaining(`Workforce Management API at ${api.baseUrl}`),
		});
		expect(elsewhere.received).toEqual([]);
	});
});

describe('an answer larger than any page the API sends', () => {
	it('is refused once it passes 16 MB, naming the request and the limit, without reading the rest', async () => {
		const api = await new OversizedApi(64 * 1024 * 1024).start();
		try {
			const { items, error } = await run(getOrganization, {
				credentials: { apiKey: LIVE_KEY, baseUrl: api.baseUrl },
			});

			// compared in short: a whole answer read in would fill the report
			expect({ items: items.length, error: error?.name, message: error?.message }).toEqual({
				items: 0,
				error: 'NodeApiError',
				message: `The Workforce Management API at ${api.baseUrl} answered GET /organization with more than 16 MB`,
			});
			await eventually('hung up on', async () => api.clientHungUp, (hungUp) => hungUp);
			expect(api.sentAll).toBe(false);
		} finally {
			await api.close();
		}
	});

	it('is refused at once when its Content-Length says so, before any of it comes', async () => {
		const api = await new OversizedApi(200 * 1024 * 1024, true).start();
		try {
			const { error } = await run(getOrganization, {
				credentials: { apiKey: LIVE_KEY, baseUrl: api.baseUrl },
			});

			expect(error).toMatchObject({
				name: 'NodeApiError',
				message: `The Workforce Management API at ${api.baseUrl} answered GET /organization with more than 16 MB`,
				description: expect.stringContaining('The node stops reading an answer at 16 MB'),
			});
			await eventually('hung up on', async () => api.clientHungUp, (hungUp) => hungUp);
		} finally {
			await api.close();
		}
	});
});
