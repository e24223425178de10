import type { AnswerStream } from './wire';

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
