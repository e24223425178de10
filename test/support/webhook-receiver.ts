/** A local webhook receiver for the sandbox's deliveries, keeping each one as it arrived. */
import http from 'node:http';

import { closeServer, listenOnLoopback } from './loopback-server';

export interface ReceivedDelivery {
	headers: http.IncomingHttpHeaders;
	rawBody: string;
	body: any;
}

/** A local webhook receiver answering the statuses queued with `answerNext` (200 otherwise). */
export class WebhookReceiver {
	readonly received: ReceivedDelivery[] = [];
	private statuses: number[] = [];
	private server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			this.received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) });
			response.statusCode = this.statuses.shift() ?? 200;
			response.end();
		});
	});

	private origin = '';

	async start(): Promise<this> {
		this.origin = await listenOnLoopback(this.server);
		return this;
	}

	get url(): string {
		return `${this.origin}/hooks/wfm`;
	}

	answerNext(...statuses: number[]): void {
		this.statuses.push(...statuses);
	}

	reset(): void {
		this.received.length = 0;
		this.statuses = [];
	}

	async stop(): Promise<void> {
		await closeServer(this.server);
	}
}
