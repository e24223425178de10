/**
 * Loopback servers standing in for an API that answers what the real one never does: a redirect
 * to another origin (with a server there that records what reaches it), and an answer far larger
 * than any page. Each records what it saw, for a test to assert on.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { closeServer, listenOnLoopback } from './loopback-server';

/** A request as another origin received it. */
export interface ReceivedElsewhere {
	method: string;
	url: string;
	authorization: string | undefined;
}

/** A server on 127.0.0.2, another origin than the API's: it records every request and answers as an API would. */
export class ElsewhereServer {
	readonly received: ReceivedElsewhere[] = [];

	private readonly server: Server;

	origin = '';

	constructor() {
		this.server = createServer((request, response) => {
			this.received.push({
				method: request.method ?? '',
				url: request.url ?? '',
				authorization: request.headers.authorization,
			});
			request.resume();
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ id: 'elsewhere', name: 'Not the API', data: [], has_more: false }));
		});
	}

	async start(): Promise<this> {
		this.origin = await listenOnLoopback(this.server, '127.0.0.2');
		return this;
	}

	async close(): Promise<void> {
		await closeServer(this.server);
	}
}

/**
 * An "API" on 127.0.0.1 that answers every request with `status` and a `Location` that `target`
 * gives for the request's path: another origin, or itself (a redirect loop).
 */
export class RedirectingApi {
	requests = 0;

	private readonly server: Server;

	origin = '';

	constructor(status: number, target: (path: string, api: RedirectingApi) => string) {
		this.server = createServer((request, response) => {
			this.requests += 1;
			request.resume();
			response.writeHead(status, { location: target(request.url ?? '/', this) });
			response.end();
		});
	}

	get baseUrl(): string {
		return `${this.origin}/api/v1`;
	}

	async start(): Promise<this> {
		this.origin = await listenOnLoopback(this.server);
		return this;
	}

	async close(): Promise<void> {
		await closeServer(this.server);
	}
}

/**
 * An "API" answering 200 with a JSON-looking body of `totalBytes`, chunked (no length announced),
 * written as fast as the client reads it; it notes whether the client hung up before the end.
 * With `announceOnly`, it announces that length in `Content-Length` and then sends nothing.
 */
export class OversizedApi {
	bytesSent = 0;

	sentAll = false;

	clientHungUp = false;

	private readonly server: Server;

	origin = '';

	constructor(
		private readonly totalBytes: number,
		private readonly announceOnly = false,
	) {
		this.server = createServer((request, response) => this.answer(request, response));
	}

	get baseUrl(): string {
		return `${this.origin}/api/v1`;
	}

	private answer(request: IncomingMessage, response: ServerResponse): void {
		request.resume();
		response.on('close', () => {
			if (!this.sentAll) this.clientHungUp = true;
		});
		if (this.announceOnly) {
			response.writeHead(200, {
				'content-type': 'application/json',
				'content-length': String(this.totalBytes),
			});
			response.flushHeaders();
			return;
		}
		response.writeHead(200, { 'content-type': 'application/json' });
		const chunk = Buffer.alloc(64 * 1024, 'a');
		response.write('{"id":"big","name":"');
		const writeMore = (): void => {
			while (!response.destroyed && this.bytesSent < this.totalBytes) {
				this.bytesSent += chunk.length;
				if (!response.write(chunk)) {
					response.once('drain', writeMore);
					return;
				}
			}
			if (response.destroyed) return;
			this.sentAll = true;
			response.end('"}');
		};
		writeMore();
	}

	async start(): Promise<this> {
		this.origin = await listenOnLoopback(this.server);
		return this;
	}

	async close(): Promise<void> {
		await closeServer(this.server);
	}
}
