/** Signing a delivery the way the API does (`X-Webhook-Signature: t=<unix>,v1=<hex>`), for tests that post envelopes themselves. */
import { createHmac } from 'node:crypto';

import type { EventEnvelope } from './sandbox-control';

export function signatureHeader(secret: string, body: string, timestamp = unixNow()): string {
	const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
	return `t=${timestamp},v1=${signature}`;
}

function unixNow(): number {
	return Math.floor(Date.now() / 1000);
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
