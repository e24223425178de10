import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The endpoint's signing secret as it is kept in static data: AES-256-GCM under a key derived
 * with HKDF-SHA256 from the credential's API key and the endpoint id. Static data is shown by
 * n8n's REST and public API and copied into every execution record; sealed, it tells a reader
 * nothing without the credential.
 *
 * Format: `wfmseal.v1.<iv>.<ciphertext>.<tag>`, each part base64url. The version names the
 * whole recipe (KDF, salt, info, cipher), so it can change without misreading old values.
 */
export const SEALED_PREFIX = 'wfmseal.v1.';

/**
 * HKDF salt: a fixed, public label (domain separation). The API key is already high-entropy;
 * the salt only makes this key unlike anything else ever derived from the same API key.
 */
const HKDF_SALT = 'n8n-nodes-workforce-management/webhook-signing-secret';

/** HKDF info binds the key to one endpoint, so a sealed value copied to another node never opens. */
function hkdfInfo(endpointId: string): string {
	return `${SEALED_PREFIX}endpoint:${endpointId}`;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function deriveSealingKey(apiKey: string, endpointId: string): Buffer {
	return Buffer.from(hkdfSync('sha256', apiKey, HKDF_SALT, hkdfInfo(endpointId), 32));
}

export function isSealed(value: unknown): value is string {
	return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

export function seal(secret: string, key: Buffer): string {
	const iv = randomBytes(IV_BYTES);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	cipher.setAAD(Buffer.from(SEALED_PREFIX));
	const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return (
		SEALED_PREFIX +
		[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.')
	);
}

/** The secret, or `undefined` for anything that does not open (wrong key, tampered, other format). */
export function open(sealed: unknown, key: Buffer): string | undefined {
	if (!isSealed(sealed)) return undefined;
	const parts = sealed.slice(SEALED_PREFIX.length).split('.');
	if (parts.length !== 3) return undefined;
	const [iv, ciphertext, tag] = parts.map((part) => Buffer.from(part, 'base64url'));
	if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
	try {
		const decipher = createDecipheriv('aes-256-gcm', key, iv);
		decipher.setAAD(Buffer.from(SEALED_PREFIX));
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
	} catch {
		return undefined;
	}
}
