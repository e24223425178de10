import type { IHttpRequestMethods, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeRateLimitAttempts } from './rateLimit';
import type { RateLimitAttempts } from './rateLimit';

interface ApiErrorBody {
	error?: {
		code?: string;
		message?: string;
		details?: Array<{ field?: string; message?: string }>;
	};
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
export function apiError(
	node: INode,
	method: IHttpRequestMethods,
	path: string,
	response: IN8nHttpFullResponse,
	operationScope: string | undefined,
	rateLimit?: RateLimitAttempts,
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
		const tried = rateLimit ? `${describeRateLimitAttempts(`${method} ${path}`, rateLimit)} ` : '';
		description = `${tried}Run fewer requests at once, or retry later.${apiSays}`;
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

/** A request that got no HTTP answer at all (refused, reset, unknown host) on every attempt. */
export function unreachableError(
	node: INode,
	apiRoot: string,
	request: string,
	attempts: number,
	cause: string,
): NodeApiError {
	const tried = attempts === 1 ? `Sent ${request} once` : `Tried ${request} ${attempts} times`;
	return new NodeApiError(
		node,
		{ message: cause },
		{
			message: `Could not reach the Workforce Management API at ${apiRoot}`,
			description: `${tried}. Check the Base URL in the credential. Cause: ${cause}`,
		},
	);
}

/** A 2xx whose body is not what the API documents (e.g. an HTML page from a proxy). */
export function unexpectedAnswerError(
	node: INode,
	request: string,
	what: string,
	recordsRead?: number,
): NodeApiError {
	const stopped = recordsRead === undefined ? '' : `Stopped after ${recordsRead} records. `;
	return new NodeApiError(
		node,
		{ request },
		{
			message: `The Workforce Management API answered ${request} with ${what}`,
			description: `${stopped}Check that the Base URL in the credential points at the API (not at a proxy or login page); if it does, retry later or contact the provider.`,
		},
	);
}
