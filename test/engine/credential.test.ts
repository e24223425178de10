/**
 * The credential dialog's test, run as n8n 2.8.4's CredentialsTester runs it: the function the
 * action node names in its credential reference (`testedBy`), called on n8n-core's
 * CredentialTestContext, against the sandbox over HTTP.
 */
import { createServer } from 'node:http';

import { CredentialTestContext } from 'n8n-core';
import type { ICredentialTestFunction, INodeCredentialTestResult } from 'n8n-workflow';

import { apiRootUrl } from '../../nodes/shared/transport';
import {
	ACTION_NODE_TYPE,
	CREDENTIAL_TYPE,
	LIVE_KEY,
	MEMBERS_ONLY_KEY,
	NO_SCOPE_KEY,
	TEST_KEY,
} from '../../harness/constants';
import { credentialTypes, nodeTypes } from '../support/engine/harness';
import { closeServer, listenOnLoopback } from '../support/loopback-server';
import { ElsewhereServer, OversizedApi, RedirectingApi } from '../support/misleading-api';
import { eventually } from '../../harness/poll';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

/** The test function as n8n finds it: the credential has no `test`, the node's reference names it. */
function dialogTest(): ICredentialTestFunction {
	expect(credentialTypes.get(CREDENTIAL_TYPE)?.test).toBeUndefined();
	const node = nodeTypes.getByNameAndVersion(ACTION_NODE_TYPE);
	const reference = node.description.credentials?.find((entry) => entry.name === CREDENTIAL_TYPE);
	const testedBy = reference?.testedBy;
	if (typeof testedBy !== 'string') throw new Error('The action node names no credential test');
	return node.methods!.credentialTest![testedBy];
}

async function testCredential(apiKey: string, baseUrl: string): Promise<INodeCredentialTestResult> {
	return await dialogTest().call(new CredentialTestContext(), {
		id: 'dialog',
		name: 'Workforce Management (dialog)',
		type: CREDENTIAL_TYPE,
		data: { apiKey, baseUrl },
	});
}

/** A closed loopback port: a server that listened there and stopped. */
async function closedPort(): Promise<string> {
	const server = createServer();
	const origin = await listenOnLoopback(server);
	await closeServer(server);
	return origin;
}

describe('Workforce Management API credential test', () => {
	it.each([
		['the API root', (origin: string) => `${origin}/api/v1`],
		['a trailing slash', (origin: string) => `${origin}/api/v1/`],
		['no /api/v1', (origin: string) => origin],
		['only /api', (origin: string) => ` ${origin}/api/ `],
	])(
		'passes given %s, reading the organization at the API root the node calls',
		async (_case, url) => {
			const baseUrl = url(sandbox.sandbox.origin);

			const result = await testCredential(LIVE_KEY, baseUrl);

			expect(result).toEqual({ status: 'OK', message: 'Connected to Acme Staffing (live mode)' });
			expect(apiRootUrl(baseUrl)).toBe(sandbox.sandbox.baseUrl);
			const requests = await sandbox.requests();
			expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
				'GET /api/v1/organization',
			]);
		},
	);

	it('says which mode a test key is in', async () => {
		const result = await testCredential(TEST_KEY, sandbox.sandbox.baseUrl);
		expect(result.message).toBe('Connected to Acme Staffing (test mode)');
	});

	it('says what to do when the API rejects the key, in the words the node uses', async () => {
		const result = await testCredential('wfm_live_acme_wrong', sandbox.sandbox.baseUrl);

		expect(result).toEqual({
			status: 'Error',
			message: `The Workforce Management API at ${new URL(sandbox.sandbox.baseUrl).host} rejected this API key. Copy the key again from the developer area of this instance: it must be complete and not revoked, and it works only on the instance it was created on. The API says: "Invalid API key: no such key exists"`,
		});
	});

	it.each([
		[
			'a webhook signing secret',
			'whsec_abc123',
			/webhook signing secret \(it starts with whsec_\), not an API key/,
		],
		['prefixed with the word Bearer', `Bearer ${LIVE_KEY}`, /without the word "Bearer"/],
		['ending in a line break', `${LIVE_KEY}\n`, /contains a space or a line break/],
		['empty', '', /Enter the API key/],
	])('refuses a key that is %s, before any request', async (_case, apiKey, message) => {
		const result = await testCredential(apiKey, sandbox.sandbox.baseUrl);

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('names every read scope a key lacks', async () => {
		const none = await testCredential(NO_SCOPE_KEY, sandbox.sandbox.baseUrl);
		const membersOnly = await testCredential(MEMBERS_ONLY_KEY, sandbox.sandbox.baseUrl);

		expect(none.status).toBe('Error');
		expect(none.message).toMatch(
			/^The API key lacks the scopes "organization:read", "members:read", "customers:read", "webhooks:read" the node's operations need\. Create a key with the "organization:read", /,
		);
		expect(membersOnly.message).toMatch(
			/^The API key lacks the scopes "organization:read", "customers:read", "webhooks:read" the node's operations need/,
		);
	});

	it.each([
		[
			429,
			'The Workforce Management API is still rate limiting this key. Run fewer requests at once, or retry later.',
		],
		[503, 'The Workforce Management API failed with status 503 (GET '],
	])('words a %i as the node does', async (status, start) => {
		await sandbox.injectFault({ status: status as 429 | 503, count: 1, retry_after: 5 });

		const result = await testCredential(LIVE_KEY, sandbox.sandbox.baseUrl);

		expect(result.status).toBe('Error');
		expect(result.message?.startsWith(start)).toBe(true);
	});

	it.each([
		['a public host', 'http://api.example.com/api/v1', 'api.example.com'],
		['a private address', 'http://192.168.1.20:8080/api/v1', '192.168.1.20:8080'],
		[
			'a host name that only starts like loopback',
			'http://127.0.0.1.example.com/api/v1',
			'127.0.0.1.example.com',
		],
	])(
		'refuses http:// to %s, before any request: the key would travel unencrypted',
		async (_case, baseUrl, host) => {
			const result = await testCredential(LIVE_KEY, baseUrl);

			expect(result).toEqual({
				status: 'Error',
				message: `The Base URL starts with http://, so the API key would travel unencrypted to ${host}. Use the https:// address: the Workforce Management API is served over HTTPS, and http:// is accepted only for this machine (localhost, 127.0.0.1, ::1).`,
			});
			expect(await sandbox.requests()).toEqual([]);
		},
	);

	it('accepts http:// to localhost, this machine', async () => {
		const baseUrl = sandbox.sandbox.baseUrl.replace('127.0.0.1', 'localhost');

		const result = await testCredential(LIVE_KEY, baseUrl);

		expect(result).toEqual({ status: 'OK', message: 'Connected to Acme Staffing (live mode)' });
	});

	it('says a Base URL answers but is not the API, and the path it should end in', async () => {
		const result = await testCredential(LIVE_KEY, `${sandbox.sandbox.origin}/portal`);

		const host = new URL(sandbox.sandbox.origin).host;
		expect(result).toEqual({
			status: 'Error',
			message: `${host} answers, but not as the Workforce Management API: GET ${sandbox.sandbox.origin}/portal/api/v1/organization gave status 404. The Base URL must be the API root of your Workforce Management instance, the address ending in /api/v1 (for example https://app.example.com/api/v1).`,
		});
	});

	it('says so when the Base URL answers with a web page instead of the API', async () => {
		const server = createServer((_request, response) => {
			response.writeHead(200, { 'content-type': 'text/html' });
			response.end('<html><body>Sign in</body></html>');
		});
		const origin = await listenOnLoopback(server);
		try {
			const result = await testCredential(LIVE_KEY, origin);
			expect(result.status).toBe('Error');
			expect(result.message).toContain(
				`answers, but not as the Workforce Management API: GET ${origin}/api/v1/organization gave something other than an organization.`,
			);
		} finally {
			await closeServer(server);
		}
	});

	it('names the host it could not reach', async () => {
		const origin = await closedPort();

		const result = await testCredential(LIVE_KEY, `${origin}/api/v1`);

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(
					`^Could not reach ${new URL(origin).host}: nothing accepts connections there \\(connection refused\\)\\. Check the Base URL\\.`,
				),
			),
		});
	});

	it.each([
		['without a scheme', 'app.example.com/api/v1', /^The Base URL must start with https:\/\/\. /],
		[
			'that is no valid address',
			'https://[app.example.com/api/v1',
			/^The Base URL is not a valid web address\. /,
		],
	])('refuses a Base URL %s, before any request', async (_case, baseUrl, message) => {
		const result = await testCredential(LIVE_KEY, baseUrl);

		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(await sandbox.requests()).toEqual([]);
	});

	it('keeps the password of a Base URL out of its messages', async () => {
		const origin = await closedPort();
		const withPassword = origin.replace('http://', 'http://admin:s3cret-pw@');

		const result = await testCredential(LIVE_KEY, `${withPassword}/api/v1`);

		expect(result.status).toBe('Error');
		expect(result.message).not.toContain('s3cret-pw');
	});
});

describe('the credential test sends the key to the Base URL\'s origin alone, within bounds', () => {
	it('does not follow a redirect to another host, and names where it pointed', async () => {
		const elsewhere = await new ElsewhereServer().start();
		const api = await new RedirectingApi(302, (path) => `${elsewhere.origin}${path}`).start();
		try {
			const result = await testCredential(LIVE_KEY, api.baseUrl);

			expect(elsewhere.received).toEqual([]);
			expect(result).toEqual({
				status: 'Error',
				message: expect.stringMatching(
					new RegExp(
						`^The Workforce Management API at ${api.baseUrl} answered GET /organization with a redirect to ${elsewhere.origin}/api/v1/organization; check the Base URL\\. `,
					),
				),
			});
		} finally {
			await api.close();
			await elsewhere.close();
		}
	});

	it('refuses an answer larger than 16 MB without reading the rest', async () => {
		const api = await new OversizedApi(64 * 1024 * 1024).start();
		try {
			const result = await testCredential(LIVE_KEY, api.baseUrl);

			// compared in short: a whole answer read in would fill the report
			expect({ status: result.status, message: result.message.slice(0, 200) }).toEqual({
				status: 'Error',
				message: expect.stringMatching(
					new RegExp(
						`^The Workforce Management API at ${api.baseUrl} answered GET /organization with more than 16 MB\\. `,
					),
				),
			});
			await eventually('hung up on', async () => api.clientHungUp, (hungUp) => hungUp);
			expect(api.sentAll).toBe(false);
		} finally {
			await api.close();
		}
	});

	it('gives up at the deadline the node has when the answer trickles, before it ends', async () => {
		// headers at once, then a byte now and then for 50 s: never silent long enough for a timeout
		await sandbox.injectFault({ kind: 'slow_body', seconds: 50, count: 1, path: '/organization' });
		const startedAt = Date.now();

		const result = await testCredential(LIVE_KEY, sandbox.sandbox.baseUrl);

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(
					`^The Workforce Management API at ${sandbox.sandbox.baseUrl} did not answer GET /organization within 30 seconds\\. `,
				),
			),
		});
		expect(Date.now() - startedAt).toBeLessThan(50_000);
	}, 70_000);
});
