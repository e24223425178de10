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
import { sleep } from 'n8n-workflow';

import { apiError, unexpectedAnswerError, unreachableError } from './apiError';
import { apiRootUrl, userInfoRedactor } from './baseUrl';
import {
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	RATE_LIMIT_MIN_WAIT_MS,
	retryAfterMs,
} from './rateLimit';
import { CREDENTIAL_TYPE } from './credentialType';

/** Attempts of a GET that gets no HTTP answer (reset, refused), the first one included. */
export const TRANSPORT_MAX_ATTEMPTS = 3;

/** The wait before the second attempt of such a GET; it doubles before each further one. */
const TRANSPORT_RETRY_FIRST_WAIT_MS = 500;

/**
 * How long one request may wait for the API's answer. n8n's own default is 300 s, and n8n
 * activates workflows one after another at start-up: a Base URL that accepts connections and never
 * answers would hold them all. A request that timed out is not retried (another 30 s would follow).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

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
 * `Retry-After` delay (at least a second), within bounded attempts and total wait; a GET that gets
 * no answer at all is retried with back-off. Every other failure becomes a `NodeApiError` worded
 * for the user, and so does a 2xx whose body is not JSON.
 */
export async function workforceApiRequest(
	this: WorkforceApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: WorkforceApiRequestOptions = {},
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
	const credentials = options.credentials ?? (await decryptCredentials.call(this));
	const baseUrl = String(credentials.data?.baseUrl ?? '');
	const apiRoot = apiRootUrl(baseUrl);
	const redact = userInfoRedactor(baseUrl);
	const described = `${method} ${path}`;
	let rateLimitedAttempts = 0;
	let waitedMs = 0;
	let transportAttempts = 0;

	for (;;) {
		const request: IHttpRequestOptions = {
			method,
			url: `${apiRoot}${path}`,
			qs: options.qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: REQUEST_TIMEOUT_MS,
		};
		if (options.body !== undefined) {
			// Serialized here because n8n drops an empty object body, and verify/deactivate must send `{}`.
			request.body = JSON.stringify(options.body);
			request.headers = { 'Content-Type': 'application/json' };
		}

		let response: IN8nHttpFullResponse;
		const sentAt = Date.now();
		try {
			transportAttempts++;
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
				{ credentialsDecrypted: credentials },
			)) as IN8nHttpFullResponse;
		} catch (error) {
			// Only transport failures land here (HTTP statuses are handled below). A GET changes
			// nothing, so asking again is safe; anything else might have been applied already.
			// n8n rewords the timeout ("The connection was aborted"): the time spent tells it apart
			if (Date.now() - sentAt >= REQUEST_TIMEOUT_MS) {
				throw unreachableError(
					this.getNode(),
					redact(apiRoot),
					described,
					transportAttempts,
					`no answer within ${REQUEST_TIMEOUT_MS / 1000} seconds`,
				);
			}
			if (method === 'GET' && transportAttempts < TRANSPORT_MAX_ATTEMPTS) {
				await sleep(TRANSPORT_RETRY_FIRST_WAIT_MS * 2 ** (transportAttempts - 1));
				continue;
			}
			throw unreachableError(
				this.getNode(),
				redact(apiRoot),
				described,
				transportAttempts,
				redact((error as Error).message),
			);
		}

		if (response.statusCode >= 200 && response.statusCode < 300) {
			const body: unknown = response.body;
			if (response.statusCode !== 204 && (typeof body !== 'object' || body === null)) {
				throw unexpectedAnswerError(this.getNode(), described, 'a body that is not a JSON object');
			}
			return body;
		}

		if (response.statusCode === 429) {
			rateLimitedAttempts++;
			const askedMs = retryAfterMs(response.headers['retry-after']);
			const delayMs = Math.max(RATE_LIMIT_MIN_WAIT_MS, askedMs);
			if (
				rateLimitedAttempts < RATE_LIMIT_MAX_ATTEMPTS &&
				waitedMs + delayMs <= RATE_LIMIT_MAX_TOTAL_WAIT_MS
			) {
				await sleep(delayMs);
				waitedMs += delayMs;
				continue;
			}
			throw apiError(this.getNode(), method, path, response, options.operationScope, {
				attempts: rateLimitedAttempts,
				waitedMs,
				askedMs,
			});
		}

		throw apiError(this.getNode(), method, path, response, options.operationScope);
	}
}
