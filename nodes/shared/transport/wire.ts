import type {
	ICredentialTestFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import type { WorkforceApiContext } from './credential';

/**
 * How long one request may take, from sending it to the last byte of the answer. n8n's `timeout`
 * bounds only the silence between two bytes, so a server or proxy that trickles its answer could
 * hold a request for as long as it liked; and n8n activates workflows one after another at
 * start-up, so a Base URL that never answers would hold them all.
 */
export const REQUEST_DEADLINE_MS = 30_000;

/**
 * The most an answer may hold. The API's largest answer, a page of 100 records, is well under
 * 1 MB; n8n's request helpers read any size whole (no `maxContentLength` reaches axios), so a
 * proxy or file server behind a wrong Base URL could fill n8n's memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer's body as n8n's request helpers hand it over when asked for a stream. */
export interface AnswerStream extends AsyncIterable<Uint8Array | string> {
	destroy(error?: Error): void;
}

/** An answer whose status and headers have come; its body is still to be read. */
export interface StreamedAnswer {
	statusCode: number;
	headers: IDataObject;
	body: AnswerStream;
}

/** Every context that calls the API: the action node, its list searches, the trigger, the credential test. */
export type SendingContext = WorkforceApiContext | ICredentialTestFunctions;

/** `promise`'s value, unless `signal` aborts first; a value that comes later is handed to `dropLate`. */
async function beforeAbort<T>(
	promise: Promise<T>,
	signal: AbortSignal,
	dropLate: (late: T) => void,
): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener('abort', onAbort);
				if (signal.aborted) dropLate(value);
				else resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}

/**
 * Sends `request` through the context's n8n request helper and hands back the answer once its
 * headers have come, its body unread. A redirect is an answer, never followed: n8n's helpers
 * follow one by default and send the `Authorization` header on to whatever origin it names.
 * `httpRequest` goes with the node and the trigger; a credential test gets only the older
 * `request`, which takes no abort signal: there the deadline is raced, and an answer that comes
 * after it is dropped unread (its connection ends at the idle timeout at the latest).
 */
export async function sendStreamed(
	context: SendingContext,
	request: IHttpRequestOptions,
	signal: AbortSignal,
): Promise<StreamedAnswer> {
	const { helpers } = context;
	if ('httpRequest' in helpers) {
		const response = (await helpers.httpRequest({
			...request,
			abortSignal: signal,
			encoding: 'stream',
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
		return {
			statusCode: response.statusCode,
			headers: response.headers,
			body: response.body as unknown as AnswerStream,
		};
	}
	const sending = helpers.request({
		method: request.method,
		uri: request.url,
		qs: request.qs,
		headers: request.headers,
		body: request.body,
		json: request.json,
		useStream: true,
		followRedirect: false,
		followAllRedirects: false,
		sendCredentialsOnCrossOriginRedirect: false,
		simple: false,
		resolveWithFullResponse: true,
		timeout: REQUEST_DEADLINE_MS,
	}) as Promise<StreamedAnswer>;
	return await beforeAbort(sending, signal, (late) => late.body.destroy());
}

/**
 * The text of an answer's body, read as it comes, or `undefined` as soon as it passes `maxBytes`
 * (the rest is not read: the connection is closed). `signal` ends the reading too.
 */
export async function readAnswerText(
	body: AnswerStream,
	maxBytes: number,
	signal: AbortSignal,
): Promise<string | undefined> {
	const stop = () => body.destroy(new Error('The request was aborted'));
	signal.throwIfAborted();
	signal.addEventListener('abort', stop, { once: true });
	try {
		const decoder = new TextDecoder();
		let text = '';
		let bytes = 0;
		for await (const chunk of body) {
			bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength;
			// leaving the loop destroys the stream
			if (bytes > maxBytes) return undefined;
			text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
		}
		return text + decoder.decode();
	} finally {
		signal.removeEventListener('abort', stop);
	}
}

/** A body as n8n's helpers hand it over with `json: true`: parsed JSON, else its text. */
export function parsedBody(text: string): unknown {
	if (text === '') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
