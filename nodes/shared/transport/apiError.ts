import type { IHttpRequestMethods, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describeRateLimitAttempts } from './rateLimit';
import type { RateLimitAttempts } from './rateLimit';
import { MAX_ANSWER_BYTES, REQUEST_DEADLINE_MS } from './wire';

export interface ApiErrorBody {
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

/** An error's two texts: what happened, and what to do about it. */
export interface Wording {
	message: string;
	description: string;
}

/** What the API answered, as the wording of a failure needs it. */
export interface FailedAnswer {
	status: number;
	body: ApiErrorBody;
	/** `GET /members` and the like. */
	request: string;
	/** The API's host (`api.example.com`), which a rejected key is named with. */
	host: string;
	/** The scopes the key was found to lack (the operation's, or those a credential test found). */
	scopes: string[];
	/** Who needs those scopes, with the verb: "this operation needs" unless given. */
	neededBy?: string;
	rateLimit?: RateLimitAttempts;
}

function quoted(scopes: string[]): string {
	return scopes.map((scope) => `"${scope}"`).join(', ');
}

function forbidden({ body, scopes, neededBy }: FailedAnswer, apiSays: string): Wording {
	if (body.error?.code === 'module_inactive') {
		const module = moduleOfScope(scopes[0]);
		return {
			message: module
				? `The ${module} module is not active for this organization`
				: 'A module this operation needs is not active for this organization',
			description: `An administrator of the organization must activate the module before this operation can be used.${apiSays}`,
		};
	}
	const noun = scopes.length === 1 ? 'scope' : 'scopes';
	return {
		message:
			scopes.length > 0
				? `The API key lacks the ${noun} ${quoted(scopes)} ${neededBy ?? 'this operation needs'}`
				: 'The API key is not allowed to perform this operation',
		description: `Create a key with ${scopes.length > 0 ? `the ${quoted(scopes)} ${noun}` : 'the needed scope'} in the developer area and use it in the credential.${apiSays}`,
	};
}

function refused(answer: FailedAnswer, apiSays: string): Wording {
	const { status, body, request, rateLimit } = answer;
	const apiMessage = body.error?.message;
	if (status === 404) {
		return {
			message: `The requested record does not exist in this organization (${request})`,
			description: `Check the ID. A record of another organization, or one created with a key of the other mode (live or test), is not visible to this key.${apiSays}`,
		};
	}
	if (status === 400 || status === 422) {
		const details = describeValidationDetails(body);
		return {
			message: `The API refused the request: ${details ?? apiMessage ?? 'invalid input'}`,
			description: `Correct the field named above and run the node again.${apiSays}`,
		};
	}
	if (status === 429) {
		const tried = rateLimit ? `${describeRateLimitAttempts(request, rateLimit)} ` : '';
		return {
			message: 'The Workforce Management API is still rate limiting this key',
			description: `${tried}Run fewer requests at once, or retry later.${apiSays}`,
		};
	}
	return {
		message: `The API refused the request with status ${status}: ${apiMessage ?? 'no reason given'}`,
		description: `Correct what the API names and run the node again (${request}).`,
	};
}

/** The one wording of each failed status, for a node's error and the credential test alike. */
export function describeFailure(answer: FailedAnswer): Wording {
	const apiMessage = answer.body.error?.message;
	const apiSays = apiMessage ? ` The API says: "${apiMessage}"` : '';
	if (answer.status === 401) {
		return {
			message: `The Workforce Management API at ${answer.host} rejected this API key`,
			description: `Copy the key again from the developer area of this instance: it must be complete and not revoked, and it works only on the instance it was created on.${apiSays}`,
		};
	}
	if (answer.status === 403) return forbidden(answer, apiSays);
	if (answer.status < 500) return refused(answer, apiSays);
	return {
		message: `The Workforce Management API failed with status ${answer.status} (${answer.request})`,
		description: `Retry later; if it persists, contact the provider.${apiSays}`,
	};
}

/** The body of an error answer, or an empty one when it is not a JSON object. */
export function errorBodyOf(body: unknown): ApiErrorBody {
	return (typeof body === 'object' && body !== null ? body : {}) as ApiErrorBody;
}

/** Turns a failed response into an error that tells a no-code user what to fix. */
export function apiError(
	node: INode,
	method: IHttpRequestMethods,
	path: string,
	response: IN8nHttpFullResponse,
	operationScope: string | undefined,
	host: string,
	rateLimit?: RateLimitAttempts,
): NodeApiError {
	const body = errorBodyOf(response.body);
	const wording = describeFailure({
		status: response.statusCode,
		body,
		request: `${method} ${path}`,
		host,
		scopes: operationScope ? [operationScope] : [],
		rateLimit,
	});
	return new NodeApiError(node, body as JsonObject, {
		...wording,
		httpCode: String(response.statusCode),
	});
}

function deadlineWording(apiRoot: string, request: string, deadlineMs: number): Wording {
	const seconds = deadlineMs / 1000;
	return {
		message: `The Workforce Management API at ${apiRoot} did not answer ${request} within ${seconds} seconds`,
		description: `The node stops waiting ${seconds} seconds after sending a request, also when part of the answer has come (a server or proxy sending it very slowly). Check that the Base URL in the credential points at the API itself, not at a proxy; if it does, retry later or contact the provider.`,
	};
}

/** A request abandoned at its deadline, answered slowly or not at all. */
export function deadlineError(
	node: INode,
	apiRoot: string,
	request: string,
	deadlineMs: number,
): NodeApiError {
	const wording = deadlineWording(apiRoot, request, deadlineMs);
	return new NodeApiError(
		node,
		{ message: `no complete answer within ${deadlineMs / 1000} seconds` },
		wording,
	);
}

/** A request the node cut short: at its deadline, at a redirect, or at an answer too large to read. */
export type CutShort =
	| { kind: 'deadline' }
	| { kind: 'redirected'; statusCode: number; location: string | undefined }
	| { kind: 'tooLarge' };

function redirectWording(
	apiRoot: string,
	request: string,
	statusCode: number,
	location: string | undefined,
): Wording {
	const pointedAt = location ?? `no address (status ${statusCode})`;
	return {
		message: `The Workforce Management API at ${apiRoot} answered ${request} with a redirect to ${pointedAt}; check the Base URL`,
		description:
			'The node does not follow redirects: it sends the API key only to the address of the Base URL (its scheme, host and port), and the API documents none. Set the Base URL in the credential to the address the API itself answers on, not one that a proxy or login page forwards from.',
	};
}

function tooLargeWording(apiRoot: string, request: string, maxBytes: number): Wording {
	const limit = `${maxBytes / (1024 * 1024)} MB`;
	return {
		message: `The Workforce Management API at ${apiRoot} answered ${request} with more than ${limit}`,
		description: `The node stops reading an answer at ${limit}, and the API's largest (a page of 100 records) is far smaller. Check that the Base URL in the credential points at the API itself, not at a proxy or a file server; if it does, contact the provider.`,
	};
}

/**
 * The wording of a request cut short, for a node's error and the credential test alike; a
 * redirect's address shown through `redact` (it may repeat the Base URL's password).
 */
export function cutShortWording(
	outcome: CutShort,
	apiRoot: string,
	request: string,
	redact: (text: string) => string,
): Wording {
	if (outcome.kind === 'deadline') return deadlineWording(apiRoot, request, REQUEST_DEADLINE_MS);
	if (outcome.kind === 'tooLarge') return tooLargeWording(apiRoot, request, MAX_ANSWER_BYTES);
	const location = outcome.location === undefined ? undefined : redact(outcome.location);
	return redirectWording(apiRoot, request, outcome.statusCode, location);
}

/** The node's error for a request cut short (see `cutShortWording`). */
export function cutShortError(
	node: INode,
	outcome: CutShort,
	apiRoot: string,
	request: string,
	redact: (text: string) => string,
): NodeApiError {
	if (outcome.kind === 'deadline') {
		return deadlineError(node, apiRoot, request, REQUEST_DEADLINE_MS);
	}
	const wording = cutShortWording(outcome, apiRoot, request, redact);
	return new NodeApiError(node, { message: wording.message }, wording);
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
