/**
 * Checks `X-Webhook-Signature` the way a receiver following the API's specification would:
 * HMAC-SHA256 of `<t>.<raw body>` keyed with the secret, any of the `v1=` values matching.
 *
 * Deliberately independent: it shares no code with the sandbox's signer
 * (sandbox/deliveries.ts), the trigger's verifier (nodes/WorkforceManagementTrigger/
 * verification/signature.ts) or the tests' signer (signed-delivery.ts). A test that checked signatures with the
 * code that made them, or with the code under test, would pass on the very mistake it is there to
 * catch. Keep it that way: written from the specification, importing nothing but Node's own modules.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A delivery as its receiver got it: the headers and the body's raw text. */
export interface ReceivedSignedDelivery {
	headers: IncomingHttpHeaders;
	rawBody: string;
}

/** Whether one of the header's `v1=` signatures signs `rawBody` at its `t=` with `secret`. */
export function signatureMatches(header: string, rawBody: string, secret: string): boolean {
	const parts = header.split(',').map((part) => part.split('='));
	const timestamp = parts.find(([name]) => name === 't')?.[1];
	if (!timestamp) return false;
	const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
	return parts
		.filter(([name]) => name === 'v1')
		.some(([, hex]) => {
			const given = Buffer.from(hex, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		});
}

/** Whether the delivery's `X-Webhook-Signature` signs its raw body with `secret`. */
export function isSignedWith(delivery: ReceivedSignedDelivery, secret: string): boolean {
	return signatureMatches(
		String(delivery.headers['x-webhook-signature']),
		delivery.rawBody,
		secret,
	);
}

/** How many `v1=` signatures the delivery's `X-Webhook-Signature` holds. */
export function signatureCount(delivery: ReceivedSignedDelivery): number {
	return String(delivery.headers['x-webhook-signature'])
		.split(',')
		.filter((part) => part.startsWith('v1=')).length;
}
