import type {
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiRootUrl, baseUrlProblem, userInfoRedactor } from './baseUrl';
import { decryptCredentials } from './credential';
import type { WorkforceApiContext } from './credential';
import { resultOf } from './result';
import type { RequestTarget } from './result';
import { afterOutcome, NO_ATTEMPTS } from './retry';
import { sendOnce } from './send';

export interface WorkforceApiRequestOptions {
	body?: IDataObject;
	qs?: IDataObject;
	/** The scope the operation needs (e.g. `members:write`), named in 403 errors. */
	operationScope?: string;
	/** The credential, decrypted once by a caller that sends many requests (pagination). */
	credentials?: ICredentialsDecrypted;
}

function httpRequestOf(
	method: IHttpRequestMethods,
	url: string,
	options: WorkforceApiRequestOptions,
): IHttpRequestOptions {
	const request: IHttpRequestOptions = { method, url, qs: options.qs, json: true };
	if (options.body !== undefined) {
		// Serialized here because n8n drops an empty object body, and verify/deactivate must send `{}`.
		request.body = JSON.stringify(options.body);
		request.headers = { 'Content-Type': 'application/json' };
	}
	return request;
}

/**
 * Sends a request to the API with the credential's key and returns the answer's body, retrying
 * as `afterOutcome` decides; every failure becomes an error worded for the user (`resultOf`).
 * A Base URL that cannot carry the key is refused before anything is sent.
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
	const redact = userInfoRedactor(baseUrl);
	const problem = baseUrlProblem(baseUrl);
	if (problem) {
		throw new NodeOperationError(this.getNode(), redact(problem), {
			description: 'Correct the Base URL in the Workforce Management API credential.',
		});
	}
	const apiRoot = apiRootUrl(baseUrl);
	const request = httpRequestOf(method, `${apiRoot}${path}`, options);
	const target: RequestTarget = {
		node: this.getNode(),
		method,
		path,
		shownApiRoot: redact(apiRoot),
		redact,
		operationScope: options.operationScope,
	};
	let attempts = NO_ATTEMPTS;
	for (;;) {
		const outcome = await sendOnce.call(this, credentials.data?.apiKey, request);
		const next = afterOutcome(method, outcome, attempts);
		attempts = next.attempts;
		if (next.delayMs === undefined) return resultOf(target, outcome, attempts);
		await sleep(next.delayMs);
	}
}
