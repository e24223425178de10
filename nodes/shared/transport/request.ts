import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { apiError } from './apiError';
import { RATE_LIMIT_MAX_ATTEMPTS, RATE_LIMIT_MAX_TOTAL_WAIT_MS, retryAfterMs } from './rateLimit';
import { CREDENTIAL_TYPE } from './scopes';

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

/**
 * The node's credential, decrypted. Handed to `httpRequestWithAuthentication`, it spares n8n a
 * database read and a decryption per request.
 */
export async function decryptCredentials(
	this: WorkforceApiContext,
): Promise<ICredentialsDecrypted> {
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
