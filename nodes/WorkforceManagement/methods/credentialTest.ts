import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API } from '../../shared/api';
import {
	API_ROOT_HINT,
	apiRootUrl,
	baseUrlProblem,
	cutShortWording,
	describeFailure,
	errorBodyOf,
	sendOnce,
	userInfoRedactor,
} from '../../shared/transport';
import type { SendOutcome } from '../../shared/transport';

/** A harmless read per read scope: on a 403 they tell which scopes the key lacks. */
const READ_PROBES = [
	{ scope: API.organization.read, path: API.organization.path },
	{ scope: API.members.read, path: `${API.members.path}?limit=1` },
	{ scope: API.customers.read, path: `${API.customers.path}?limit=1` },
	{ scope: API.webhookEvents.read, path: API.webhookEvents.path },
];

type Get = (path: string) => Promise<SendOutcome>;

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
function unreachableReason({ code = '', cause }: { code?: string; cause: string }): string {
	if (code === 'ECONNREFUSED') return 'nothing accepts connections there (connection refused)';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return 'no host has that name (DNS lookup failed)';
	if (/CERT|SSL|TLS/i.test(code)) return `its TLS certificate is not accepted (${code})`;
	return code || cause;
}

/** A GET with the key through the node's transport (deadline, size limit, no redirects), answered whatever its status. */
function getter(this: ICredentialTestFunctions, apiRoot: string, apiKey: string): Get {
	return async (path) =>
		await sendOnce.call(this, apiKey, { method: 'GET', url: `${apiRoot}${path}`, json: true });
}

/** The read scopes a key lacks, once reading the organization answered 403. */
async function lackingScopes(get: Get): Promise<string[]> {
	const lacks = async (path: string): Promise<boolean> => {
		const probe = await get(path);
		return (
			probe.kind === 'answered' &&
			probe.response.statusCode === 403 &&
			errorBodyOf(probe.response.body).error?.code !== 'module_inactive'
		);
	};
	const probes = await Promise.all(
		READ_PROBES.map(async ({ scope, path }) => ({
			scope,
			lacking: scope === API.organization.read || (await lacks(path)),
		})),
	);
	return probes.filter((probe) => probe.lacking).map((probe) => probe.scope);
}

/** What the answer to reading the organization says about the credential. */
async function verdict(
	answer: IN8nHttpFullResponse,
	get: Get,
	{ host, tested }: { host: string; tested: string },
): Promise<INodeCredentialTestResult> {
	const { statusCode, body } = answer;
	if (statusCode >= 200 && statusCode < 300 && isOrganization(body)) {
		const mode = body.sandbox === true ? 'test' : 'live';
		return { status: 'OK', message: `Connected to ${body.name} (${mode} mode)` };
	}
	if (statusCode === 401 || statusCode === 403 || statusCode === 429 || statusCode >= 500) {
		const scopes = statusCode === 403 ? await lackingScopes(get) : [];
		const wording = describeFailure({
			status: statusCode,
			body: errorBodyOf(body),
			request: tested,
			host,
			scopes,
			neededBy: "the node's operations need",
		});
		return fail(`${wording.message}. ${wording.description}`);
	}
	// Anything else at GET /organization (a 404 above all) means the Base URL is not the API root.
	const what =
		statusCode >= 200 && statusCode < 300
			? 'something other than an organization'
			: `status ${statusCode}`;
	return fail(
		`${host} answers, but not as the Workforce Management API: ${tested} gave ${what}. ${API_ROOT_HINT}`,
	);
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
	const redact = userInfoRedactor(baseUrl);
	const problem = keyProblem(apiKey) ?? baseUrlProblem(baseUrl);
	if (problem) return fail(redact(problem));
	const apiRoot = apiRootUrl(baseUrl);
	const host = new URL(apiRoot).host;
	const get = getter.call(this, apiRoot, apiKey);
	const outcome = await get(API.organization.path);
	if (outcome.kind === 'unanswered') {
		const reason = redact(unreachableReason(outcome));
		return fail(`Could not reach ${host}: ${reason}. Check the Base URL. ${API_ROOT_HINT}`);
	}
	if (outcome.kind !== 'answered') {
		const request = `GET ${API.organization.path}`;
		const wording = cutShortWording(outcome, redact(apiRoot), request, redact);
		return fail(`${wording.message}. ${wording.description}`);
	}
	return await verdict(outcome.response, get, {
		host,
		tested: redact(`GET ${apiRoot}${API.organization.path}`),
	});
}

/** The node's `methods.credentialTest`; the credential reference names the test (`testedBy`). */
export const credentialTest = { workforceManagementApiTest };
