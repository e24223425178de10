/**
 * A delivery signed the way the API signs it (hex HMAC-SHA256 of `<t>.<raw body>` keyed with the
 * endpoint's secret), for tests and benchmarks that post to a trigger themselves.
 */
import { createHmac } from 'node:crypto';
import { request } from 'node:http';

import type { EventEnvelope } from './sandbox-control';

export interface SignedDelivery {
	body: string;
	headers: Record<string, string>;
}

export function signatureHeader(secret: string, body: string, unixSeconds = unixNow()): string {
	const signature = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
	return `t=${unixSeconds},v1=${signature}`;
}

function unixNow(): number {
	return Math.floor(Date.now() / 1000);
}

/** An example envelope (invented data) with the given id, signed now. */
export function signedDelivery(
	secret: string,
	envelopeId: string,
	type = 'member.updated',
	data: Record<string, unknown> = { id: 'example-member', business_name: 'Example Staffing' },
): SignedDelivery {
	const body = JSON.stringify({
		id: envelopeId,
		type,
		created_at: new Date().toISOString(),
		mode: 'live',
		data,
	});
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'x-webhook-id': envelopeId,
			'x-webhook-signature': signatureHeader(secret, body),
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

/**
 * Posts every delivery at once, each on its own connection (fetch may queue requests to one
 * origin behind a single connection, which would send them one after another). Answers the
 * statuses, in order.
 */
export async function postAllAtOnce(url: string, deliveries: SignedDelivery[]): Promise<number[]> {
	return await Promise.all(
		deliveries.map(
			(delivery) =>
				new Promise<number>((resolve, reject) => {
					const outgoing = request(
						url,
						{ method: 'POST', agent: false, headers: delivery.headers },
						(response) => {
							response.resume();
							response.on('end', () => resolve(response.statusCode ?? 0));
							response.on('error', reject);
						},
					);
					outgoing.on('error', reject);
					outgoing.end(delivery.body);
				}),
		),
	);
}

/** POSTs an envelope signed with `secret` to a webhook URL; answers the status and the body. */
export async function postSignedEnvelope(
	url: string,
	envelope: EventEnvelope,
	secret: string,
): Promise<{ status: number; body: string }> {
	const body = JSON.stringify(envelope);
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-webhook-signature': signatureHeader(secret, body),
		},
		body,
	});
	return { status: response.status, body: await response.text() };
}
