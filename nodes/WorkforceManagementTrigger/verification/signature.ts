import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=<hex>…]`. */
export const SIGNATURE_HEADER = 'x-webhook-signature';

const SIGNATURE_SCHEME = 'v1';
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,15}$/;

export interface SignatureHeader {
	timestamp: number;
	/** Every `v1=` value, in header order; during a secret roll there is one per active secret. */
	signatures: string[];
}

export type SignatureRejection =
	| 'no_secret'
	| 'invalid_tolerance'
	| 'missing_header'
	| 'malformed_header'
	| 'timestamp_outside_tolerance'
	| 'signature_mismatch';

export type SignatureVerdict =
	| { valid: true; timestamp: number }
	| { valid: false; reason: SignatureRejection };

export interface SignatureCheck {
	/** The request body exactly as received, before any JSON parsing. */
	rawBody: Buffer;
	header: string | string[] | undefined;
	/** Secrets the endpoint may sign with; an empty list fails closed. */
	secrets: string[];
	nowSeconds: number;
	/** Must be a positive number: anything else (NaN from an expression) refuses every delivery. */
	toleranceSeconds: number;
}

/**
 * Parses `t=…,v1=…` strictly: whitespace is allowed only around the comma-separated elements,
 * `t` must appear once as whole unix seconds, at least one `v1` must be present, and every
 * element needs a name and a value. Unknown schemes (e.g. `v0=`) are ignored, not trusted.
 */
export function parseSignatureHeader(
	header: string | string[] | undefined,
): SignatureHeader | undefined {
	if (typeof header !== 'string') return undefined;

	let timestamp: number | undefined;
	const signatures: string[] = [];
	for (const element of header.split(',').map((part) => part.trim())) {
		const separator = element.indexOf('=');
		if (separator === -1 || /\s/.test(element)) return undefined;
		const scheme = element.slice(0, separator);
		const value = element.slice(separator + 1);
		if (scheme === '' || value === '') return undefined;

		if (scheme === 't') {
			if (timestamp !== undefined || !UNIX_SECONDS.test(value)) return undefined;
			timestamp = Number(value);
		} else if (scheme === SIGNATURE_SCHEME) {
			signatures.push(value);
		}
	}

	if (timestamp === undefined || signatures.length === 0) return undefined;
	return { timestamp, signatures };
}

/** Hex HMAC-SHA256 of `<t>.<raw body>`, the value a `v1=` element carries. */
export function computeSignature(secret: string, timestamp: number, rawBody: Buffer): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

function signaturesMatch(expectedHex: string, candidate: string): boolean {
	if (!HEX_SHA256.test(candidate)) return false;
	return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(candidate, 'hex'));
}

export function verifySignature(check: SignatureCheck): SignatureVerdict {
	const secrets = check.secrets.filter((secret) => secret !== '');
	if (secrets.length === 0) return { valid: false, reason: 'no_secret' };
	// `abs(…) > NaN` is false: without this, a tolerance that is not a number accepts any timestamp
	if (!(Number.isFinite(check.toleranceSeconds) && check.toleranceSeconds > 0)) {
		return { valid: false, reason: 'invalid_tolerance' };
	}
	if (check.header === undefined || check.header === '') {
		return { valid: false, reason: 'missing_header' };
	}

	const parsed = parseSignatureHeader(check.header);
	if (parsed === undefined) return { valid: false, reason: 'malformed_header' };

	if (Math.abs(check.nowSeconds - parsed.timestamp) > check.toleranceSeconds) {
		return { valid: false, reason: 'timestamp_outside_tolerance' };
	}

	for (const secret of secrets) {
		const expected = computeSignature(secret, parsed.timestamp, check.rawBody);
		if (parsed.signatures.some((candidate) => signaturesMatch(expected, candidate))) {
			return { valid: true, timestamp: parsed.timestamp };
		}
	}
	return { valid: false, reason: 'signature_mismatch' };
}
