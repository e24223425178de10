/**
 * The tests' one signer: deliveries signed the way the API documents it (hex HMAC-SHA256 of
 * `<t>.<raw body>` keyed with the endpoint's secret), for tests and benchmarks that post to a
 * trigger themselves and for the unit tests of the trigger's verifier. Written from the
 * specification, independently of the code under test (it imports nothing from nodes/).
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';

import type { EventEnvelope, WebhookEndpoint } from './sandbox-control';

export interface SignedDelivery {
	body: string;
	headers: Record<string, string>;
}

/** The hex HMAC-SHA256 of `<unixSeconds>.<body>` keyed with `secret`, over the body's bytes. */
export function hmacSignature(secret: string, unixSeconds: number, body: string | Buffer): string {
	return createHmac('sha256', secret).update(`${unixSeconds}.`).update(body).digest('hex');
}

/**
 * `t=<unixSeconds>,v1=<signature>`: the `X-Webhook-Signature` header, with one `v1=` per secret
 * when several are given, as the API signs with a rolled endpoint's old secret too.
 */
export function signatureHeader(
	secret: string | readonly string[],
	body: string,
	unixSeconds = unixNow(),
): string {
	const signatures = [secret].flat().map((each) => `v1=${hmacSignature(each, unixSeconds, body)}`);
	return [`t=${unixSeconds}`, ...signatures].join(',');
}

function unixNow(): number {
	return Math.floor(Date.now() / 1000);
}

export interface SignedDeliveryOptions {
	/** The envelope's mode, as the key that emitted it; `live` unless given. */
	mode?: 'live' | 'test';
	/** The signature's timestamp; now unless given. */
	unixSeconds?: number;
	/** Whether to send a `content-length` header (a keep-alive sender needs one; fetch adds its own). */
	contentLength?: boolean;
}

/** An example envelope (invented data) with the given id, signed now. */
export function signedDelivery(
	secret: string | readonly string[],
	envelopeId: string,
	type = 'member.updated',
	data: Record<string, unknown> = { id: 'example-member', business_name: 'Example Staffing' },
	{ mode = 'live', unixSeconds = unixNow(), contentLength = false }: SignedDeliveryOptions = {},
): SignedDelivery {
	const body = JSON.stringify({
		id: envelopeId,
		type,
		created_at: new Date().toISOString(),
		mode,
		data,
	});
	return {
		body,
		headers: {
			'content-type': 'application/json',
			...(contentLength ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
			'x-webhook-id': envelopeId,
			'x-webhook-signature': signatureHeader(secret, body, unixSeconds),
		},
	};
}

/** `count` distinct envelope ids in the API's format (`evt_` + hex), distinct per `prefix`. */
export function envelopeIds(count: number, prefix: string): string[] {
	return Array.from(
		{ length: count },
		(_, index) => `evt_${prefix}${index.toString(16).padStart(4, '0')}`,
	);
}

/** POSTs one delivery through `agent` (false: a connection of its own); answers the status. */
function post(url: string, delivery: SignedDelivery, agent: Agent | false): Promise<number> {
	return new Promise<number>((resolve, reject) => {
		const outgoing = request(
			url,
			{ method: 'POST', agent, headers: delivery.headers },
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
				response.on('error', reject);
			},
		);
		outgoing.on('error', reject);
		outgoing.end(delivery.body);
	});
}

/**
 * Posts every delivery at once, each on its own connection (fetch may queue requests to one
 * origin behind a single connection, which would send them one after another). Answers the
 * statuses, in order.
 */
export async function postAllAtOnce(url: string, deliveries: SignedDelivery[]): Promise<number[]> {
	return await Promise.all(deliveries.map((delivery) => post(url, delivery, false)));
}

/** One delivery's answer, with its send and answer times (`performance.now()`). */
export interface TimedAnswer {
	status: number;
	sentAtMs: number;
	answeredAtMs: number;
}

/**
 * Posts the deliveries over `concurrency` keep-alive connections, at most that many in flight, as
 * a busy sender would (deliveries need a `content-length` header). Answers each status and its
 * time from sending to the end of the answer, in the order the answers came, and `answers`, one per
 * delivery in the deliveries' order. `onAnswer` is called with the number answered so far.
 */
export async function postOverKeepAlive(
	url: string,
	deliveries: SignedDelivery[],
	concurrency: number,
	onAnswer?: (answered: number) => void,
): Promise<{ statuses: number[]; latenciesMs: number[]; answers: TimedAnswer[] }> {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const statuses: number[] = [];
	const latenciesMs: number[] = [];
	const answers: TimedAnswer[] = [];
	let next = 0;
	const sender = async () => {
		while (next < deliveries.length) {
			const index = next++;
			const sentAtMs = performance.now();
			// 0: no answer (the connection was refused or cut, as by a process that stopped)
			const status = await post(url, deliveries[index], agent).catch(() => 0);
			const answeredAtMs = performance.now();
			answers[index] = { status, sentAtMs, answeredAtMs };
			statuses.push(status);
			latenciesMs.push(answeredAtMs - sentAtMs);
			onAnswer?.(statuses.length);
		}
	};
	try {
		await Promise.all(Array.from({ length: concurrency }, sender));
	} finally {
		agent.destroy();
	}
	return { statuses, latenciesMs, answers };
}

/**
 * `postOverKeepAlive`, then, as the API retries a delivery not answered 2xx, the ones not answered
 * 200 again (after `pauseMs`), for at most `rounds` rounds: an n8n that answers 503 for a moment
 * ("Database is not ready!" while its database check is late on a loaded machine) still gets each.
 * Answers each delivery's last status, in the deliveries' order, and how many were sent again.
 */
export async function postAsTheApiRetries(
	url: string,
	deliveries: SignedDelivery[],
	concurrency: number,
	{ rounds = 10, pauseMs = 1_000 } = {},
): Promise<{ statuses: number[]; resent: number }> {
	const statuses: number[] = Array(deliveries.length).fill(0);
	let pending = deliveries.map((_, index) => index);
	let resent = 0;
	for (let round = 0; round < rounds && pending.length > 0; round++) {
		if (round > 0) {
			resent += pending.length;
			await new Promise((wake) => setTimeout(wake, pauseMs));
		}
		const { answers } = await postOverKeepAlive(
			url,
			pending.map((index) => deliveries[index]),
			concurrency,
		);
		pending.forEach((index, at) => (statuses[index] = answers[at].status));
		pending = pending.filter((index) => statuses[index] !== 200);
	}
	return { statuses, resent };
}

/**
 * `postOverKeepAlive`, with `stop` started beside the rest once `stopAfter` deliveries are
 * answered (n8n or one of its processes stopped in the middle of a stream). Also answers when the
 * stop began and ended (`performance.now()`).
 */
export async function postAndStopMidway(
	url: string,
	deliveries: SignedDelivery[],
	concurrency: number,
	stopAfter: number,
	stop: () => Promise<void>,
): Promise<{ answers: TimedAnswer[]; stopBeganAt: number; stoppedAt: number }> {
	let stopping: Promise<void> | undefined;
	let stopBeganAt = 0;
	let stoppedAt = 0;
	const { answers } = await postOverKeepAlive(url, deliveries, concurrency, (answered) => {
		if (answered !== stopAfter) return;
		stopBeganAt = performance.now();
		stopping = stop().then(() => {
			stoppedAt = performance.now();
		});
	});
	await stopping;
	return { answers, stopBeganAt, stoppedAt };
}

/**
 * POSTs an envelope signed with `secret` (timestamped now unless given) to a webhook URL; answers
 * the status and the body.
 */
export async function postSignedEnvelope(
	url: string,
	envelope: Partial<EventEnvelope>,
	secret: string,
	unixSeconds = unixNow(),
): Promise<{ status: number; body: string }> {
	const body = JSON.stringify(envelope);
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-webhook-signature': signatureHeader(secret, body, unixSeconds),
		},
		body,
	});
	return { status: response.status, body: await response.text() };
}

/**
 * The signature header the API puts on a delivery of `body` at `nowMs` (its clock): the endpoint's
 * current secret, then each replaced one still signing, newest first (`endpoint` as the sandbox's
 * control interface lists it, secrets included).
 */
export function apiSignatureHeader(endpoint: WebhookEndpoint, body: string, nowMs: number): string {
	const timestamp = Math.floor(nowMs / 1000);
	const stillSigning = (endpoint.previous_secrets ?? [])
		.filter((previous) => Date.parse(previous.expires_at) > nowMs)
		.map((previous) => previous.secret)
		.reverse();
	const signatures = [endpoint.secret!, ...stillSigning].map(
		(secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
	);
	return [`t=${timestamp}`, ...signatures].join(',');
}

/** POSTs `envelope` to a webhook URL as the API would deliver it at `nowMs`; answers the status. */
export async function postAsTheApi(
	url: string,
	endpoint: WebhookEndpoint,
	envelope: EventEnvelope,
	nowMs: number,
): Promise<number> {
	const body = JSON.stringify(envelope);
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-webhook-id': envelope.id,
			'x-webhook-signature': apiSignatureHeader(endpoint, body, nowMs),
		},
		body,
	});
	await response.arrayBuffer();
	return response.status;
}
