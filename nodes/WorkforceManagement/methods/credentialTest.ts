import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API } from '../../shared/api';
import { apiRootUrl } from '../../shared/transport';
import { userInfoRedactor } from '../../shared/transport/baseUrl';

const TIMEOUT_MS = 15_000;

const API_ROOT_HINT =
	'The Base URL must be the API root of your Workforce Management instance, the address ending in /api/v1 (for example https://app.example.com/api/v1).';

/** A harmless read per read scope: on a 403 they tell which scopes the key lacks. */
const READ_PROBES = [
	{ scope: API.organization.read, path: API.organization.path },
	{ scope: API.members.read, path: `${API.members.path}?limit=1` },
	{ scope: API.customers.read, path: `${API.customers.path}?limit=1` },
	{ scope: API.webhookEvents.read, path: API.webhookEvents.path },
];

interface Answer {
	statusCode: number;
	body: unknown;
}

const fail = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** What is wrong with the key as typed, before any request. */
function keyProblem(apiKey: string): string | undefined {
	if (apiKey === '') return 'Enter the API key created in the developer area of your account.';
	if (/^bearer\s/i.test(apiKey)) {
		return 'Enter the API key without the word "Bearer": n8n sends "Authorization: Bearer <key>" itself.';
	}
	if (apiKey.startsWith('whsec_')) {
		return 'This is a webhook signing secret (it starts with whsec_), not an API key. Paste an API key from the developer area; the trigger manages signing secrets itself.';
	}
	if (/\s/.test(apiKey)) {
		return 'The API key contains a space or a line break. Copy it again from the developer area.';
	}
	return undefined;
}

function apiErrorField(body: unknown, field: 'code' | 'message'): unknown {
	return ((body as IDataObject | undefined)?.error as IDataObject | undefined)?.[field];
}

const errorCode = (body: unknown): unknown => apiErrorField(body, 'code');

function apiSays(body: unknown): string {
	const message = apiErrorField(body, 'message');
	return typeof message === 'string' ? ` The API says: "${message}"` : '';
}

function isOrganization(body: unknown): body is { name: string; sandbox?: boolean } {
	const record = body as IDataObject | null;
	return (
		typeof record === 'object' &&
		record !== null &&
		typeof record.id === 'string' &&
		typeof record.name === 'string'
	);
}

/** Why a request got no HTTP answer, from the code n8n's request helper leaves on the error. */
function unreachableReason(error: { code?: string; message?: string }): string {
	const code = error.code ?? '';
	if (code === 'ECONNREFUSED') return 'nothing accepts connections there (connection refused)';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return 'no host has that name (DNS lookup failed)';
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED') {
		return `no answer within ${TIMEOUT_MS / 1000} s`;
	}
	if (/CERT|SSL|TLS/i.test(code)) return `its TLS certificate is not accepted (${code})`;
	return code || error.message || 'unknown network error';
}

/**
 * The credential dialog's test: reads the organization with the key and explains, in the
 * package's words, what to fix when that fails. n8n 2.8.4 shows a node's credential test message
 * in the dialog, but replaces a declarative test's failures with its own generic wording.
 */
export async function workforceManagementApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const apiKey = String(credential.data?.apiKey ?? '');
	const baseUrl = String(credential.data?.baseUrl ?? '').trim();
	const problem = keyProblem(apiKey);
	if (problem) return fail(problem);
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		return fail(`The Base URL must start with https://. ${API_ROOT_HINT}`);
	}
	const redact = userInfoRedactor(baseUrl);
	const apiRoot = apiRootUrl(baseUrl);
	let host: string;
	try {
		host = new URL(apiRoot).host;
	} catch {
		return fail(`The Base URL is not a valid web address. ${API_ROOT_HINT}`);
	}
	// A credential test gets only `helpers.request` from n8n (no httpRequest in this context).
	const { helpers } = this;
	const get = async (path: string): Promise<Answer> =>
		(await helpers.request({
			method: 'GET',
			uri: `${apiRoot}${path}`,
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: TIMEOUT_MS,
		})) as Answer;

	let answer: Answer;
	try {
		answer = await get(API.organization.path);
	} catch (error) {
		const reason = redact(unreachableReason(error as { code?: string; message?: string }));
		return fail(`Could not reach ${host}: ${reason}. Check the Base URL. ${API_ROOT_HINT}`);
	}
	const { statusCode, body } = answer;
	const tested = redact(`GET ${apiRoot}${API.organization.path}`);

	if (statusCode >= 200 && statusCode < 300 && isOrganization(body)) {
		return {
			status: 'OK',
			message: `Connected to ${body.name} (${body.sandbox === true ? 'test' : 'live'} mode)`,
		};
	}
	if (statusCode === 401) {
		return fail(
			`The Workforce Management API at ${host} rejected this API key. Copy the key again from the developer area of this instance: it must be complete and not revoked, and it works only on the instance it was created on.${apiSays(body)}`,
		);
	}
	if (statusCode === 403) {
		const lacks = async (path: string): Promise<boolean> => {
			const probe = await get(path).catch(() => undefined);
			return probe?.statusCode === 403 && errorCode(probe.body) !== 'module_inactive';
		};
		const probes = await Promise.all(
			READ_PROBES.map(async ({ scope, path }) => ({
				scope,
				lacking: scope === API.organization.read || (await lacks(path)),
			})),
		);
		const missing = probes.filter((probe) => probe.lacking).map((probe) => probe.scope);
		const scopes = missing.length === 1 ? 'scope' : 'scopes';
		return fail(
			`The API key is valid but lacks the ${scopes} ${missing.join(', ')}. Add ${missing.length === 1 ? 'it' : 'them'} to the key in the developer area, or create a key that has ${missing.length === 1 ? 'it' : 'them'}: this test reads the organization (organization:read), and each operation needs the read or write scope of its resource.${apiSays(body)}`,
		);
	}
	if (statusCode === 429) {
		return fail(`The API at ${host} is rate limiting this key. Test again in a minute.`);
	}
	if (statusCode >= 500) {
		return fail(
			`The Workforce Management API at ${host} failed with status ${statusCode}. Test again later; if it persists, contact the provider.`,
		);
	}
	const what =
		statusCode >= 200 && statusCode < 300
			? 'something other than an organization'
			: `status ${statusCode}`;
	return fail(
		`${host} answers, but not as the Workforce Management API: ${tested} gave ${what}. ${API_ROOT_HINT}`,
	);
}

/** The node's `methods.credentialTest`; the credential reference names the test (`testedBy`). */
export const credentialTest = { workforceManagementApiTest };
