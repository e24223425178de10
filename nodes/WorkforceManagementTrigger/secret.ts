import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { storedSecrets } from './delivery';
import type { StoredRegistration } from './registration';

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

/**
 * Where the trigger's signing secret lives between the API and the signature check: sealed in
 * static data (see `seal` below), opened with a key derived from the node's credential.
 */

type NodeContext = IHookFunctions | IWebhookFunctions;

async function sealingKey(context: NodeContext, endpointId: string): Promise<Buffer | undefined> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const apiKey = credentials.apiKey;
	return typeof apiKey === 'string' && apiKey !== ''
		? deriveSealingKey(apiKey, endpointId)
		: undefined;
}

/** The value to keep in static data for a secret the API just handed over. */
export async function sealSecret(
	this: IHookFunctions,
	endpointId: string,
	secret: string,
): Promise<string> {
	const key = await sealingKey(this, endpointId);
	if (!key) {
		throw new NodeOperationError(
			this.getNode(),
			'The credential has no API key to seal the webhook signing secret with',
		);
	}
	return seal(secret, key);
}

/** A secret stored before sealing existed (0.x static data): a plain `whsec_…` string. */
function plainSecret(stored: unknown): string | undefined {
	return isSealed(stored) ? undefined : storedSecrets(stored)[0];
}

/**
 * The stored secret in the clear, opened with the credential as it is now (no cache: a changed
 * API key must show here, at activation, as a lost secret that reconcile re-keys).
 */
export async function openStoredSecret(
	this: IHookFunctions,
	stored: StoredRegistration,
): Promise<string | undefined> {
	const legacy = plainSecret(stored.secret);
	if (legacy !== undefined) return legacy;
	if (!isSealed(stored.secret) || !stored.endpointId) return undefined;
	const key = await sealingKey(this, stored.endpointId);
	return key && open(stored.secret, key);
}

/** Seals a secret still stored in the clear (kept from before sealing); a no-op otherwise. */
export async function sealPlainSecret(this: IHookFunctions, stored: StoredRegistration) {
	const legacy = plainSecret(stored.secret);
	if (legacy !== undefined && stored.endpointId) {
		stored.secret = await sealSecret.call(this, stored.endpointId, legacy);
	}
}

/**
 * Opened secrets by sealed value, so a delivery costs neither a credential load (a database read
 * in n8n) nor a key derivation once the process has opened it. `null`: the credential loaded but
 * the value does not open, so forged traffic against a broken registration stays cheap too.
 * Keyed by the sealed text (unique per seal, random IV), never by anything in the clear.
 */
const opened = new Map<string, string | null>();
const MAX_OPENED = 256;

function remember(sealed: string, secret: string | null): void {
	if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value as string);
	opened.set(sealed, secret);
}

/** Drops a secret from the process cache (deactivation). */
export function forgetOpenedSecret(sealed: unknown): void {
	if (typeof sealed === 'string') opened.delete(sealed);
}

/**
 * The secrets a delivery may be signed with. Anything that cannot be opened (wrong or missing
 * credential, damaged value, a stored value of the wrong type) gives none, so verification
 * fails closed with 401 rather than a 500.
 */
export async function deliverySecrets(
	this: IWebhookFunctions,
	stored: StoredRegistration,
): Promise<string[]> {
	const legacy = plainSecret(stored.secret);
	if (legacy !== undefined) return [legacy];
	const sealed = stored.secret;
	if (!isSealed(sealed) || typeof stored.endpointId !== 'string') return [];

	if (!opened.has(sealed)) {
		let key: Buffer | undefined;
		try {
			key = await sealingKey(this, stored.endpointId);
		} catch {
			return []; // the credential could not be loaded: refuse now, try again next time
		}
		remember(sealed, (key && open(sealed, key)) ?? null);
	}
	const secret = opened.get(sealed);
	return secret ? [secret] : [];
}
