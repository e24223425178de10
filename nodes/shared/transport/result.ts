import type { IHttpRequestMethods, INode } from 'n8n-workflow';

import { apiError, cutShortError, unexpectedAnswerError, unreachableError } from './apiError';
import type { Attempts } from './retry';
import type { SendOutcome } from './send';

/** Where a request went, for the error that ends it; the API root with any password blanked. */
export interface RequestTarget {
	node: INode;
	method: IHttpRequestMethods;
	path: string;
	shownApiRoot: string;
	redact: (text: string) => string;
	operationScope?: string;
}

/**
 * The error mapping: the body of a request's final outcome when it succeeded, else the error that
 * says what went wrong and what to do. A 2xx must carry a JSON object, a 204 nothing.
 */
export function resultOf(target: RequestTarget, outcome: SendOutcome, attempts: Attempts): unknown {
	const { node, method, path, shownApiRoot } = target;
	const request = `${method} ${path}`;
	if (outcome.kind === 'deadline' || outcome.kind === 'redirected' || outcome.kind === 'tooLarge') {
		throw cutShortError(node, outcome, shownApiRoot, request, target.redact);
	}
	if (outcome.kind === 'unanswered') {
		throw unreachableError(
			node,
			shownApiRoot,
			request,
			attempts.sent,
			target.redact(outcome.cause),
		);
	}
	const { response } = outcome;
	if (response.statusCode >= 200 && response.statusCode < 300) {
		const body: unknown = response.body;
		if (response.statusCode !== 204 && (typeof body !== 'object' || body === null)) {
			throw unexpectedAnswerError(node, request, 'a body that is not a JSON object');
		}
		return body;
	}
	const rateLimit =
		response.statusCode === 429
			? { attempts: attempts.rateLimited, waitedMs: attempts.waitedMs, askedMs: attempts.askedMs }
			: undefined;
	const host = new URL(shownApiRoot).host;
	throw apiError(node, method, path, response, target.operationScope, host, rateLimit);
}
