import type { IHttpRequestOptions } from 'n8n-workflow';

import { apiRootUrl } from '../../nodes/shared/transport';
import { createWorkflow, credentialTypes, credentialsHelper } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';
import { LIVE_KEY } from '../support/constants';

const sandbox = useSandbox();

const credentialType = credentialTypes.get('workforceManagementApi')!;

/** The credential's test request as n8n's credential dialog resolves it. */
async function resolveTestRequest(apiKey: string, baseUrl: string): Promise<IHttpRequestOptions> {
	const { workflow, node } = createWorkflow({
		parameters: { resource: 'organization', operation: 'get' },
	});
	const { baseURL, url, method } = credentialType.test!.request;
	const resolvedBaseUrl = workflow.expression.getSimpleParameterValue(node, baseURL, 'internal', {
		$credentials: { apiKey, baseUrl },
	});
	return await credentialsHelper.authenticate(
		{ apiKey, baseUrl },
		credentialType.name,
		{ url: `${String(resolvedBaseUrl)}${url as string}`, method },
		workflow,
		node,
	);
}

describe('Workforce Management API credential', () => {
	it.each([
		['the API root', 'https://wfm.example/api/v1'],
		['a trailing slash', 'https://wfm.example/api/v1/'],
		['no /api/v1', 'https://wfm.example'],
		['only /api', ' https://wfm.example/api/ '],
	])('tests the same API root the node calls, given %s', async (_case, baseUrl) => {
		const request = await resolveTestRequest(LIVE_KEY, baseUrl);

		expect(apiRootUrl(baseUrl)).toBe('https://wfm.example/api/v1');
		expect(request.url).toBe(`${apiRootUrl(baseUrl)}/organization`);
	});

	it('authenticates with a Bearer header, and the test call succeeds only with a valid key', async () => {
		const send = async (apiKey: string) => {
			const request = await resolveTestRequest(apiKey, sandbox.sandbox.origin);
			return await fetch(request.url, {
				method: request.method,
				headers: request.headers as Record<string, string>,
			});
		};

		const good = await send(LIVE_KEY);
		const wrong = await send('wfm_live_wrong');

		expect(good.status).toBe(200);
		expect(wrong.status).toBe(401);
		expect(credentialType.test!.rules).toContainEqual(
			expect.objectContaining({ properties: expect.objectContaining({ value: wrong.status }) }),
		);
		const [request] = (await sandbox.requests()) as Array<{ headers?: Record<string, string> }>;
		expect(request.headers).toMatchObject({ authorization: `Bearer ${LIVE_KEY}` });
	});
});
