import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

import { DEFAULT_CONFIG, resolveConfig, startSandbox } from '../../sandbox/index';
import type { Sandbox } from '../../sandbox/index';
import { api, control } from '../../harness/sandbox-api';
import { createMember } from '../support/sandbox-records';
import { expectError } from '../support/sandbox-shapes';
import { OPERATIONS } from '../../sandbox/operations';
import { LIVE_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';
import { closeServer, listenOnLoopback } from '../support/loopback-server';
import { SPEC_EVENT_TYPES } from '../support/spec-event-types';

const fixture = useSandbox();

describe('request log', () => {
	it('records API requests with method, path, query, body and time, and clears on DELETE', async () => {
		await api(fixture.sandbox, LIVE_KEY, 'GET', '/members?limit=5&is_active=true');
		await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', { business_name: 'Logged' });
		await api(fixture.sandbox, null, 'GET', '/organization');
		await control(fixture.sandbox, 'GET', '/clock');

		const { requests } = await control(fixture.sandbox, 'GET', '/requests');
		expect(
			requests.map(
				(request: { method: string; path: string }) => `${request.method} ${request.path}`,
			),
		).toEqual(['GET /api/v1/members', 'POST /api/v1/members', 'GET /api/v1/organization']);
		expect(requests[0]).toMatchObject({ query: { limit: '5', is_active: 'true' }, body: null });
		expect(requests[1]).toMatchObject({ body: { business_name: 'Logged' } });
		expect(requests[1].headers.authorization).toBe(`Bearer ${LIVE_KEY}`);
		expect(Number.isNaN(Date.parse(requests[1].at))).toBe(false);

		await control(fixture.sandbox, 'DELETE', '/requests');
		expect((await control(fixture.sandbox, 'GET', '/requests')).requests).toEqual([]);
	});
});

describe('key rotation', () => {
	it('replaces a key by one with the same grants and revokes the old one; reset brings it back', async () => {
		const rotated = await control(fixture.sandbox, 'POST', '/keys/rotate', { key: LIVE_KEY });
		expect(rotated.key).toMatch(/^wfm_live_acme_all_r\d+$/);
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(401);
		expect((await api(fixture.sandbox, rotated.key, 'GET', '/organization')).status).toBe(200);
		expect((await api(fixture.sandbox, rotated.key, 'POST', '/members', {})).status).toBe(400);

		await control(fixture.sandbox, 'POST', '/reset');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		expect((await api(fixture.sandbox, rotated.key, 'GET', '/organization')).status).toBe(401);
	});

	it('answers 404 for a key that does not exist', async () => {
		const answer = await fetch(`${fixture.sandbox.origin}/__sandbox/keys/rotate`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ key: 'wfm_live_nobody' }),
		});
		expect(answer.status).toBe(404);
	});
});

describe('reset', () => {
	it('wipes data back to the config and resets the clock, keeping organization ids', async () => {
		const before = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		await createMember(fixture.sandbox);
		await control(fixture.sandbox, 'POST', '/clock/advance', { seconds: 7200 });
		await control(fixture.sandbox, 'POST', '/faults', { status: 500, count: 5 });

		await control(fixture.sandbox, 'POST', '/reset');
		const after = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		expect(after.status).toBe(200);
		expect(after.body.id).toBe(before.body.id);
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).body.data).toEqual([]);
		const { now } = await control(fixture.sandbox, 'GET', '/clock');
		expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(3600_000);
	});
});

describe('bounded control inputs', () => {
	async function controlAnswer(method: string, path: string, body?: unknown) {
		const answer = await fetch(`${fixture.sandbox.origin}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: answer.status, body: (await answer.json()) as any };
	}

	it('refuses a clock jump past what a date can hold, and the API keeps answering', async () => {
		const huge = await controlAnswer('POST', '/clock/advance', { seconds: 1e13 });
		expect(huge.status).toBe(400);
		expect(huge.body.error.code).toBe('validation_failed');

		// many allowed steps cannot add up to an invalid date either
		const step = 50 * 366 * 24 * 3600;
		expect((await controlAnswer('POST', '/clock/advance', { seconds: step })).status).toBe(200);
		expect((await controlAnswer('POST', '/clock/advance', { seconds: step })).status).toBe(200);
		const third = await controlAnswer('POST', '/clock/advance', { seconds: step });
		expect(third.status).toBe(400);
		expect(third.body.error.details[0].message).toContain('/__sandbox/reset');

		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization')).status).toBe(200);
		const member = await createMember(fixture.sandbox);
		expect(Number.isNaN(Date.parse(member.created_at))).toBe(false);
	});

	it('recovers with reset from the clock at its limit', async () => {
		await control(fixture.sandbox, 'POST', '/clock/advance', { seconds: 100 * 366 * 24 * 3600 });
		await control(fixture.sandbox, 'POST', '/reset');
		const { now } = await control(fixture.sandbox, 'GET', '/clock');
		expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).status).toBe(200);
	});

	it('bounds fault counts, Retry-After and the number of pending faults', async () => {
		expect((await controlAnswer('POST', '/faults', { status: 500, count: 1e9 })).status).toBe(400);
		expect(
			(await controlAnswer('POST', '/faults', { status: 429, count: 1, retry_after: 1e9 })).status,
		).toBe(400);
		for (let index = 0; index < 100; index++) {
			await control(fixture.sandbox, 'POST', '/faults', { status: 503, count: 1, path: '/none' });
		}
		const tooMany = await controlAnswer('POST', '/faults', { status: 503, count: 1 });
		expect(tooMany.status).toBe(400);
		expect(tooMany.body.error.details[0].message).toContain('DELETE /__sandbox/faults');
		expect((await control(fixture.sandbox, 'GET', '/faults')).faults).toHaveLength(100);
	});

	it('answers 413 to a body over 1 MiB, on the API and the control interface', async () => {
		const oversize = { business_name: 'x'.repeat(1024 * 1024 + 1) };
		const viaApi = await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', oversize);
		expectError(viaApi, 413, 'payload_too_large');
		expect(viaApi.body.error.message).toContain('1 MiB');
		expect((await controlAnswer('POST', '/clock/advance', oversize)).status).toBe(413);
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).body.data).toEqual([]);
	});
});

describe('clock', () => {
	it('moves the sandbox clock forward, which stamps new records', async () => {
		const { now } = await control(fixture.sandbox, 'POST', '/clock/advance', {
			seconds: 86_400 * 2,
		});
		const member = await createMember(fixture.sandbox);
		expect(Date.parse(member.created_at)).toBeGreaterThanOrEqual(Date.parse(now));
		expect(Date.parse(member.created_at) - Date.now()).toBeGreaterThan(86_400_000);
	});
});

describe('seeding and endpoint secrets', () => {
	it('bulk-creates members for one tenant', async () => {
		const answer = await control(fixture.sandbox, 'POST', '/seed/members', {
			organization: 'acme',
			mode: 'test',
			count: 1000,
		});
		expect(answer).toEqual({ created: 1000, total: 1000 });
		const page = await api(fixture.sandbox, 'wfm_test_acme_all', 'GET', '/members?limit=100');
		expect(page.body.data).toHaveLength(100);
		expect(page.body.data[0].business_name).toBe('Seeded Member 1000');
		expect((await api(fixture.sandbox, LIVE_KEY, 'GET', '/members')).body.data).toEqual([]);
	});

	it('lists endpoints with their full secrets, per organization and mode', async () => {
		const created = await api(fixture.sandbox, LIVE_KEY, 'POST', '/webhook-endpoints', {
			url: 'https://hooks.example.com/a',
			events: ['*'],
		});
		const { endpoints } = await control(
			fixture.sandbox,
			'GET',
			'/endpoints?organization=acme&mode=live',
		);
		expect(endpoints).toEqual([
			expect.objectContaining({
				id: created.body.id,
				secret: created.body.secret,
				organization: 'acme',
				previous_secrets: [],
			}),
		]);
		expect(
			(await control(fixture.sandbox, 'GET', '/endpoints?organization=acme&mode=test')).endpoints,
		).toEqual([]);
	});

	it('answers 404 for an unknown organization', async () => {
		const answer = await fetch(`${fixture.sandbox.origin}/__sandbox/events`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ organization: 'umbrella', mode: 'live', type: 'member.created' }),
		});
		expect(answer.status).toBe(404);
	});
});

describe('HTTP details', () => {
	it('treats an empty JSON body as {} and refuses non-JSON bodies with 415', async () => {
		const member = await createMember(fixture.sandbox);
		const empty = await fetch(`${fixture.sandbox.baseUrl}/members/${member.id}/verify`, {
			method: 'POST',
			headers: { authorization: `Bearer ${LIVE_KEY}`, 'content-type': 'application/json' },
		});
		expect(empty.status).toBe(200);
		const text = await fetch(`${fixture.sandbox.baseUrl}/members`, {
			method: 'POST',
			headers: { authorization: `Bearer ${LIVE_KEY}`, 'content-type': 'text/plain' },
			body: 'business_name=x',
		});
		expect(text.status).toBe(415);
		expect(((await text.json()) as { error: { code: string } }).error.code).toBe(
			'unsupported_media_type',
		);
	});

	it('serves an OpenAPI document of every operation the sandbox routes', async () => {
		const answer = await fetch(`${fixture.sandbox.baseUrl}/openapi.json`);
		expect(answer.status).toBe(200);
		const document = (await answer.json()) as {
			openapi: string;
			paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>;
			webhooks: Record<string, unknown>;
		};
		expect(document.openapi).toBe('3.1.0');
		expect(Object.keys(document.webhooks)).toHaveLength(SPEC_EVENT_TYPES.length);
		const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
		expect(operations.map((operation) => operation.operationId).sort()).toEqual(
			OPERATIONS.map((operation) => operation.operationId).sort(),
		);
		expect(document.paths['/members'].post.requestBody).toMatchObject({
			content: {
				'application/json': {
					schema: { required: ['business_name'], additionalProperties: false },
				},
			},
		});
	});
});

describe('attempts that hang', () => {
	let hanging: http.Server;
	let requestsSeen: number;
	let url: string;

	beforeAll(async () => {
		hanging = http.createServer(() => {
			requestsSeen += 1;
		});
		url = `${await listenOnLoopback(hanging)}/hook`;
	});
	beforeEach(() => {
		requestsSeen = 0;
	});
	afterAll(() => closeServer(hanging));

	async function withLocalSandbox(timeoutMs: number, run: (local: Sandbox) => Promise<void>) {
		const local = await startSandbox({
			config: { webhooks: { allowInsecureUrls: true, timeoutMs } },
		});
		try {
			await api(local, LIVE_KEY, 'POST', '/webhook-endpoints', { url, events: ['member.created'] });
			await run(local);
		} finally {
			await local.close();
		}
	}

	it('fails an attempt that outlasts timeoutMs and records why', async () => {
		await withLocalSandbox(200, async (local) => {
			await createMember(local);
			const { deliveries } = await control(local, 'POST', '/deliveries/settle');
			expect(deliveries[0]).toMatchObject({
				status: 'failed',
				attempts: 1,
				last_response_status: null,
				last_error: 'Timed out after 200 ms',
			});
		});
	});

	it('aborts attempts in flight on reset and never sends their retries', async () => {
		await withLocalSandbox(60_000, async (local) => {
			await createMember(local);
			await control(local, 'GET', '/deliveries');
			while (requestsSeen === 0) await new Promise((resolve) => setImmediate(resolve));
			await control(local, 'POST', '/reset');
			await control(local, 'POST', '/clock/advance', { seconds: 3600 });
			const { deliveries } = await control(local, 'POST', '/deliveries/settle');
			expect(deliveries).toEqual([]);
			expect(requestsSeen).toBe(1);
		});
	});
});

describe('config', () => {
	it('fills missing sections and keys with the defaults', () => {
		const config = resolveConfig({ webhooks: { autoDisableAfter: 3 } });
		expect(config.webhooks).toEqual({ ...DEFAULT_CONFIG.webhooks, autoDisableAfter: 3 });
		expect(config.rateLimit).toEqual(DEFAULT_CONFIG.rateLimit);
		expect(config.organizations).toEqual(DEFAULT_CONFIG.organizations);
	});

	it('refuses a malformed config, naming each problem', () => {
		const attempt = () =>
			resolveConfig({
				organizations: [
					{
						name: '',
						slug: 'acme',
						status: 'active',
						modules: ['members'],
						keys: [{ key: 'k1', mode: 'prod' as 'live', scopes: ['members:delete'] }],
					},
				],
				rateLimit: { requests: 0 },
			});
		expect(attempt).toThrow('organizations[0].name must be a non-empty string');
		expect(attempt).toThrow('organizations[0].keys[0].mode must be live or test');
		expect(attempt).toThrow('organizations[0].keys[0].scopes has unknown scopes: members:delete');
		expect(attempt).toThrow('rateLimit.requests must be a number > 0');
	});

	it('serves only the organizations and keys of a given config', async () => {
		const local = await startSandbox({
			config: {
				organizations: [
					{
						name: 'Solo',
						slug: 'solo',
						status: 'demo',
						modules: ['members'],
						keys: [{ key: 'solo_key', mode: 'live', scopes: ['organization:read'] }],
					},
				],
			},
		});
		try {
			const organization = await api(local, 'solo_key', 'GET', '/organization');
			expect(organization.body).toMatchObject({
				name: 'Solo',
				slug: 'solo',
				status: 'demo',
				sandbox: false,
			});
			expectError(await api(local, LIVE_KEY, 'GET', '/organization'), 401, 'unauthorized');
		} finally {
			await local.close();
		}
	});
});

describe('CLI', () => {
	const cli = path.join(__dirname, '..', '..', 'sandbox', 'cli.ts');
	const tsx = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');

	it('prints the default config', async () => {
		const child = spawn(tsx, [cli, '--print-default-config']);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const code = await new Promise((resolve) => child.on('exit', resolve));
		expect(code).toBe(0);
		expect(JSON.parse(output)).toEqual(DEFAULT_CONFIG);
	});

	it('announces the listening line and the keys, serves requests and stops cleanly on SIGINT', async () => {
		const child = spawn(tsx, [cli, '--port', '0']);
		let output = '';
		const listening = new Promise<string>((resolve, reject) => {
			child.stdout.on('data', (chunk: Buffer) => {
				output += chunk.toString();
				const match = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/.exec(output);
				if (match && output.includes('wfm_test_initech_all')) resolve(match[1]);
			});
			child.on('exit', () => reject(new Error(`exited early: ${output}`)));
		});
		const baseUrl = await listening;
		expect(output).toContain('wfm_live_acme_all');
		const answer = await fetch(`${baseUrl}/organization`, {
			headers: { authorization: `Bearer ${LIVE_KEY}` },
		});
		expect(answer.status).toBe(200);
		const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
		child.kill('SIGINT');
		expect(await exited).toBe(0);
	});
});
