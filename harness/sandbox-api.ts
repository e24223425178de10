/**
 * Requests to the sandbox over HTTP, built and read in one place: the public API with a key
 * (`Authorization: Bearer <key>`) and the control interface (`/__sandbox/*`), JSON both ways.
 * `sandboxAnswer` gives the whole answer, errors included (status, headers, parsed body), for tests
 * of what the API answers; `sandboxBody` gives the body of a success and throws otherwise.
 */
import type { Sandbox } from '../sandbox';

export interface SandboxAnswer<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

export interface SandboxRequest {
	/** Sent as `Authorization: Bearer <apiKey>`; no such header when left out or null. */
	apiKey?: string | null;
	/** Sent as JSON; a string goes out as it is (a malformed body, for instance). */
	body?: unknown;
}

export class SandboxRequestError extends Error {
	constructor(
		method: string,
		path: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`Sandbox ${method} ${path} answered ${status}: ${body}`);
		this.name = 'SandboxRequestError';
	}

	/** The `error.message` of the sandbox's error body, when it has one. */
	get apiMessage(): string | undefined {
		try {
			return (JSON.parse(this.body) as { error?: { message?: string } }).error?.message;
		} catch {
			return undefined;
		}
	}
}

/** The path of the public API under the sandbox's origin (the credential's Base URL ends in it). */
export const API_PATH = '/api/v1';

async function send(
	url: string,
	method: string,
	{ apiKey, body }: SandboxRequest,
): Promise<{ status: number; headers: Headers; text: string }> {
	const response = await fetch(url, {
		method,
		headers: {
			...(apiKey == null ? {} : { authorization: `Bearer ${apiKey}` }),
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	return { status: response.status, headers: response.headers, text: await response.text() };
}

function parsed(text: string): any {
	return text ? JSON.parse(text) : undefined;
}

/** The sandbox's whole answer to a request, whatever its status. */
export async function sandboxAnswer<T = any>(
	url: string,
	method: string,
	request: SandboxRequest = {},
): Promise<SandboxAnswer<T>> {
	const { status, headers, text } = await send(url, method, request);
	return { status, headers, body: parsed(text) };
}

/** The body of the sandbox's 2xx answer; throws `SandboxRequestError` for any other status. */
export async function sandboxBody<T = unknown>(
	url: string,
	method: string,
	request: SandboxRequest = {},
): Promise<T> {
	const { status, text } = await send(url, method, request);
	if (status < 200 || status > 299) {
		const { pathname, search } = new URL(url);
		throw new SandboxRequestError(method, pathname + search, status, text);
	}
	return parsed(text) as T;
}

/**
 * A request to an in-process sandbox's public API as any client would make it (no key when
 * `key` is null), answered whole, errors included: what the sandbox's own tests check.
 */
export function api(
	sandbox: Pick<Sandbox, 'baseUrl'>,
	key: string | null,
	method: string,
	path: string,
	body?: unknown,
): Promise<SandboxAnswer> {
	return sandboxAnswer(sandbox.baseUrl + path, method, { apiKey: key, body });
}

/** A call to an in-process sandbox's control interface (`path` after `/__sandbox`); its body. */
export function control(
	sandbox: Pick<Sandbox, 'origin'>,
	method: string,
	path: string,
	body?: unknown,
): Promise<any> {
	return sandboxBody(`${sandbox.origin}/__sandbox${path}`, method, { body });
}
