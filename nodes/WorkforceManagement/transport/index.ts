import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

export type WorkforceApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface WorkforceApiRequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** The scope the operation needs (e.g. `members:write`), named in 403 errors. */
	operationScope?: string;
	/** The credential, decrypted once by a caller that sends many requests (pagination). */
	credentials?: ICredentialsDecrypted;
}

export interface WorkforceListPage {
	data: IDataObject[];
	has_more: boolean;
	next_cursor: string | null;
}

export const CREDENTIAL_TYPE = 'workforceManagementApi';

/** The scope each operation needs; 403 errors name it. */
export const SCOPE = {
	organizationRead: 'organization:read',
	membersRead: 'members:read',
	membersWrite: 'members:write',
	customersRead: 'customers:read',
	customersWrite: 'customers:write',
	webhooksRead: 'webhooks:read',
	webhooksWrite: 'webhooks:write',
} as const;

export const MAX_PAGE_SIZE = 100;

/** Attempts per request while the API answers 429, the first one included. */
export const RATE_LIMIT_MAX_ATTEMPTS = 5;

/** Upper bound of the time one request spends waiting for the rate limit to lift. */
export const RATE_LIMIT_MAX_TOTAL_WAIT_MS = 60_000;

const DEFAULT_RETRY_AFTER_MS = 1_000;

interface ApiErrorBody {
	error?: {
		code?: string;
		message?: string;
		details?: Array<{ field?: string; message?: string }>;
	};
}

/**
 * The API root the credential points at, tolerant of a trailing slash and of a missing `/api/v1`.
 * The credential's test request applies the same rule in expression form.
 */
export function apiRootUrl(baseUrl: string): string {
	const origin = baseUrl
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api(\/v1)?$/, '');
	return `${origin}/api/v1`;
}

/** Milliseconds to wait as asked by a `Retry-After` header (seconds or an HTTP date). */
export function retryAfterMs(header: unknown, now = Date.now()): number {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return DEFAULT_RETRY_AFTER_MS;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
	const date = Date.parse(String(value));
	if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_MS;
	return Math.max(0, date - now);
}

function moduleOfScope(scope: string | undefined): string | undefined {
	const resource = scope?.split(':')[0];
	return resource === 'members' || resource === 'customers' ? resource : undefined;
}

function describeValidationDetails(body: ApiErrorBody): string | undefined {
	const details = body.error?.details ?? [];
	const described = details
		.filter((detail) => detail.field || detail.message)
		.map((detail) =>
			detail.field ? `${detail.field}: ${detail.message ?? 'invalid'}` : detail.message,
		);
	return described.length > 0 ? described.join('; ') : undefined;
}

/** Turns a failed response into an error that tells a no-code user what to fix. */
function apiError(
	node: INode,
	method: IHttpRequestMethods,
	path: string,
	response: IN8nHttpFullResponse,
	operationScope: string | undefined,
): NodeApiError {
	const body = (
		typeof response.body === 'object' && response.body !== null ? response.body : {}
	) as ApiErrorBody;
	const apiMessage = body.error?.message;
	const apiSays = apiMessage ? ` The API says: "${apiMessage}"` : '';
	const status = response.statusCode;
	let message: string;
	let description: string;

	if (status === 401) {
		message = 'The Workforce Management API rejected the API key';
		description = `Check the API key and the Base URL in the credential: the key must be complete, not revoked, and belong to the instance at that URL.${apiSays}`;
	} else if (status === 403 && body.error?.code === 'module_inactive') {
		const module = moduleOfScope(operationScope);
		message = module
			? `The ${module} module is not active for this organization`
			: 'A module this operation needs is not active for this organization';
		description = `An administrator of the organization must activate the module before this operation can be used.${apiSays}`;
	} else if (status === 403) {
		message = operationScope
			? `The API key lacks the scope "${operationScope}" this operation needs`
			: 'The API key is not allowed to perform this operation';
		description = `Create a key with ${operationScope ? `the "${operationScope}"` : 'the needed'} scope in the developer area and use it in the credential.${apiSays}`;
	} else if (status === 404) {
		message = `The requested record does not exist in this organization (${method} ${path})`;
		description = `Check the ID. A record of another organization, or one created with a key of the other mode (live or test), is not visible to this key.${apiSays}`;
	} else if (status === 400 || status === 422) {
		const details = describeValidationDetails(body);
		message = `The API refused the request: ${details ?? apiMessage ?? 'invalid input'}`;
		description = `Correct the field named above and run the node again.${apiSays}`;
	} else if (status === 429) {
		message = 'The Workforce Management API is still rate limiting this key';
		description = `The node retried ${RATE_LIMIT_MAX_ATTEMPTS} times or for up to ${RATE_LIMIT_MAX_TOTAL_WAIT_MS / 1000} seconds as the API asked. Run fewer requests at once, or retry later.${apiSays}`;
	} else if (status < 500) {
		message = `The API refused the request with status ${status}: ${apiMessage ?? 'no reason given'}`;
		description = `Correct what the API names and run the node again (${method} ${path}).`;
	} else {
		message = `The Workforce Management API failed with status ${status} (${method} ${path})`;
		description = `Retry later; if it persists, contact the provider.${apiSays}`;
	}

	return new NodeApiError(node, body as JsonObject, {
		message,
		description,
		httpCode: String(status),
	});
}

/**
 * The node's credential, decrypted. Handed to `httpRequestWithAuthentication`, it spares n8n a
 * database read and a decryption per request.
 */
async function decryptCredentials(this: WorkforceApiContext): Promise<ICredentialsDecrypted> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
}

/**
 * Sends one request to the API with the credential's key. A 429 is retried after the
 * `Retry-After` delay, within bounded attempts and total wait; every other failure becomes a
 * `NodeApiError` worded for the user.
 */
export async function workforceApiRequest(
	this: WorkforceApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: WorkforceApiRequestOptions = {},
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
	const credentials = options.credentials ?? (await decryptCredentials.call(this));
	const apiRoot = apiRootUrl(String(credentials.data?.baseUrl ?? ''));
	const url = `${apiRoot}${path}`;
	let waitedMs = 0;

	for (let attempt = 1; ; attempt++) {
		const request: IHttpRequestOptions = {
			method,
			url,
			qs: options.qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		if (options.body !== undefined) {
			// Serialized here because n8n drops an empty object body, and verify/deactivate must send `{}`.
			request.body = JSON.stringify(options.body);
			request.headers = { 'Content-Type': 'application/json' };
		}

		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
				{ credentialsDecrypted: credentials },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// Only transport failures land here (HTTP statuses are handled below).
			throw new NodeApiError(
				this.getNode(),
				{ message: (error as Error).message },
				{
					message: `Could not reach the Workforce Management API at ${apiRoot}`,
					description: `Check the Base URL in the credential. Cause: ${(error as Error).message}`,
				},
			);
		}

		if (response.statusCode >= 200 && response.statusCode < 300) {
			return response.body;
		}

		if (response.statusCode === 429 && attempt < RATE_LIMIT_MAX_ATTEMPTS) {
			const delayMs = retryAfterMs(response.headers['retry-after']);
			if (waitedMs + delayMs <= RATE_LIMIT_MAX_TOTAL_WAIT_MS) {
				await sleep(delayMs);
				waitedMs += delayMs;
				continue;
			}
		}

		throw apiError(this.getNode(), method, path, response, options.operationScope);
	}
}

/**
 * Reads a list endpoint page by page, asking each page for no more records than are still
 * wanted, so N records cost ceil(N / 100) requests. `limit` undefined returns all records.
 */
export async function workforceApiPaginate(
	this: WorkforceApiContext,
	path: string,
	qs: IDataObject = {},
	limit?: number,
	operationScope?: string,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const seenCursors = new Set<string>();
	// A filter left empty in the UI means "no filter".
	const filters = Object.fromEntries(
		Object.entries(qs).filter(([, value]) => value !== '' && value !== undefined),
	);
	let cursor: string | undefined;
	const credentials = await decryptCredentials.call(this);

	while (limit === undefined || records.length < limit) {
		const pageSize = Math.min(
			MAX_PAGE_SIZE,
			limit === undefined ? MAX_PAGE_SIZE : limit - records.length,
		);
		const page = (await workforceApiRequest.call(this, 'GET', path, {
			qs: { ...filters, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) },
			operationScope,
			credentials,
		})) as WorkforceListPage;
		records.push(...page.data.slice(0, pageSize));

		const nextCursor = page.next_cursor;
		if (page.has_more === false || typeof nextCursor !== 'string' || nextCursor === '') break;
		if (seenCursors.has(nextCursor)) {
			throw new NodeApiError(
				this.getNode(),
				{ next_cursor: nextCursor },
				{
					message: `The API returned the same page cursor twice while listing ${path}`,
					description: `Stopped after ${records.length} records to avoid reading the same page forever. Retry later; if it persists, contact the provider.`,
				},
			);
		}
		seenCursors.add(nextCursor);
		cursor = nextCursor;
	}

	return records;
}

/** The event catalog: the API documents no paging for it, so it is one request. */
export async function workforceEventCatalog(this: WorkforceApiContext): Promise<IDataObject[]> {
	const catalog = (await workforceApiRequest.call(this, 'GET', '/webhook-events', {
		operationScope: SCOPE.webhooksRead,
	})) as WorkforceListPage;
	return catalog.data;
}
