import type { IHttpRequestOptions, IN8nHttpFullResponse, IN8nHttpResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { authorizationHeader } from './credential';
import {
	MAX_ANSWER_BYTES,
	parsedBody,
	readAnswerText,
	REQUEST_DEADLINE_MS,
	sendStreamed,
} from './wire';
import type { SendingContext, StreamedAnswer } from './wire';

/**
 * How one request ended: an HTTP answer (any status but a redirect), a redirect (not followed),
 * an answer too large to read, its deadline, or no answer at all.
 */
export type SendOutcome =
	| { kind: 'answered'; response: IN8nHttpFullResponse }
	| { kind: 'redirected'; statusCode: number; location: string | undefined }
	| { kind: 'tooLarge' }
	| { kind: 'deadline' }
	| { kind: 'unanswered'; cause: string; code?: string };

/** The execution's cancel signal, which the action node's context has and the others lack. */
function cancelSignalOf(context: SendingContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/** Where a redirect pointed, as an absolute address. */
function locationOf(header: unknown, requestUrl: string): string | undefined {
	if (typeof header !== 'string' || header === '') return undefined;
	try {
		return new URL(header, requestUrl).href;
	} catch {
		return header;
	}
}

/** The outcome of an answer whose headers have come: its body is read only when it is one to use. */
async function outcomeOf(
	answer: StreamedAnswer,
	requestUrl: string,
	signal: AbortSignal,
): Promise<SendOutcome> {
	const { statusCode, headers, body } = answer;
	if (statusCode >= 300 && statusCode < 400) {
		body.destroy();
		return { kind: 'redirected', statusCode, location: locationOf(headers.location, requestUrl) };
	}
	if (Number(headers['content-length']) > MAX_ANSWER_BYTES) {
		body.destroy();
		return { kind: 'tooLarge' };
	}
	const text = await readAnswerText(body, MAX_ANSWER_BYTES, signal);
	if (text === undefined) return { kind: 'tooLarge' };
	return {
		kind: 'answered',
		response: { statusCode, headers, body: parsedBody(text) as IN8nHttpResponse },
	};
}

/**
 * Sends `request` once with `apiKey`, to the request's origin alone, within `REQUEST_DEADLINE_MS`
 * and `MAX_ANSWER_BYTES`. It goes through `httpRequest` (or a credential test's `request`, see
 * `sendStreamed`): `httpRequestWithAuthentication` replaces a request's abort signal with the
 * execution's cancel signal in the action node (n8n-core 2.8 to 2.41), which would drop the
 * deadline. Cancelling the execution still aborts the request.
 */
export async function sendOnce(
	this: SendingContext,
	apiKey: unknown,
	request: IHttpRequestOptions,
): Promise<SendOutcome> {
	const deadline = AbortSignal.timeout(REQUEST_DEADLINE_MS);
	const cancel = cancelSignalOf(this);
	const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
	try {
		const answer = await sendStreamed(
			this,
			{ ...request, headers: { ...request.headers, ...authorizationHeader(apiKey) } },
			signal,
		);
		return await outcomeOf(answer, request.url, signal);
	} catch (error) {
		// Only transport failures land here: every HTTP status is an answer.
		// n8n is stopping the execution: nothing to retry, nothing for the user to fix
		if (cancel?.aborted && 'getNode' in this) {
			throw new NodeApiError(this.getNode(), error as JsonObject);
		}
		if (deadline.aborted) return { kind: 'deadline' };
		const { message, code } = error as { message?: string; code?: string };
		return { kind: 'unanswered', cause: message ?? 'unknown network error', code };
	}
}
