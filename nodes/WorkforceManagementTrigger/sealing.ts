import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../shared/transport';
import * as webhookEndpoints from '../shared/webhookEndpoints';
import { fetchEndpoint, isOwnEndpoint, type StoredRegistration } from './registration';

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

/**
 * The stored secret in the clear, opened with the credential as it is now (no cache: a changed
 * API key must show here, at activation, as a lost secret that reconcile re-keys). A secret kept
 * in the clear (0.x static data, or written by hand) counts as lost too: anyone who can write
 * static data could have chosen it, so it is replaced by rolling, never trusted.
 */
export async function openStoredSecret(
	this: IHookFunctions,
	stored: StoredRegistration,
): Promise<string | undefined> {
	if (!isSealed(stored.secret) || !stored.endpointId) return undefined;
	const key = await sealingKey(this, stored.endpointId);
	return key && open(stored.secret, key);
}

/**
 * Opened secrets by sealed value, so a delivery costs neither a credential load (a database read
 * in n8n) nor a key derivation once the process has opened it. Only successes are kept: a value
 * that did not open is tried again with the credential as it is then. Keyed by the sealed text
 * (unique per seal, random IV), never by anything in the clear.
 */
const opened = new Map<string, string>();
const MAX_OPENED = 256;

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
	cache.delete(key);
	if (cache.size >= MAX_OPENED) cache.delete(cache.keys().next().value as string);
	cache.set(key, value);
}

/** Drops a secret from the process cache (deactivation). */
export function forgetOpenedSecret(sealed: unknown): void {
	if (typeof sealed === 'string') opened.delete(sealed);
}

/**
 * Per endpoint: when this process last tried to repair its secret, the unusable value it replaced,
 * and what it rolled (kept to bridge the time until n8n has saved the new sealed value).
 */
const repairs = new Map<
	string,
	{ triedAt: number; replaced: unknown; sealed?: string; secret?: string }
>();

/**
 * At most one repair per endpoint and process in this time: a stored secret that does not open
 * depends on static data, not on what a request carries, and forged traffic against it makes the
 * trigger call the API at most once a minute.
 */
export const REPAIR_INTERVAL_SECONDS = 60;

type Opened = { secret: string } | 'unusable' | 'credential_unavailable';

async function openForDelivery(
	context: IWebhookFunctions,
	sealed: unknown,
	endpointId: string,
): Promise<Opened> {
	if (!isSealed(sealed)) return 'unusable';
	const cached = opened.get(sealed);
	if (cached !== undefined) return { secret: cached };
	let key: Buffer | undefined;
	try {
		key = await sealingKey(context, endpointId);
	} catch {
		return 'credential_unavailable';
	}
	const secret = key && open(sealed, key);
	if (secret === undefined) return 'unusable';
	remember(opened, sealed, secret);
	return { secret };
}

/**
 * The secrets a delivery may be signed with. A stored secret that cannot be used (the API key was
 * changed, so the sealing key with it; a value in the clear or damaged) is repaired: the
 * endpoint's secret is rolled and sealed with the credential as it is now. The API signs with the
 * old and the new secret for 24 hours, so the delivery refused now is accepted on its retry, with
 * no reactivation. Anything else that fails gives no secret: verification fails closed with 401.
 */
export async function deliverySecrets(
	this: IWebhookFunctions,
	stored: StoredRegistration,
	nowSeconds: number,
): Promise<string[]> {
	const { endpointId } = stored;
	if (typeof endpointId !== 'string' || endpointId === '') return [];
	const current = await openForDelivery(this, stored.secret, endpointId);
	if (current === 'credential_unavailable') return [];
	if (current !== 'unusable') return [current.secret];

	const unusable = stored.secret;
	const repaired = repairs.get(endpointId);
	if (repaired?.secret !== undefined && repaired.replaced === unusable) {
		// rolled here for this very value, and n8n has not saved the new one yet (or saved over it)
		stored.secret = repaired.sealed;
		return [repaired.secret];
	}
	if (repaired && nowSeconds - repaired.triedAt < REPAIR_INTERVAL_SECONDS) return [];
	remember(repairs, endpointId, { triedAt: nowSeconds, replaced: unusable });
	const secret = await rollUnusableSecret.call(this, stored, endpointId);
	if (secret === undefined) return [];
	remember(repairs, endpointId, {
		triedAt: nowSeconds,
		replaced: unusable,
		sealed: stored.secret,
		secret,
	});
	return [secret];
}

async function rollUnusableSecret(
	this: IWebhookFunctions,
	stored: StoredRegistration,
	endpointId: string,
): Promise<string | undefined> {
	const workflow = this.getWorkflow();
	const where = `Workforce Management Trigger "${this.getNode().name}" in workflow "${workflow.name ?? ''}" (${workflow.id ?? ''})`;
	const meta = { workflowId: workflow.id, node: this.getNode().name };
	this.logger.error(
		`${where}: the stored webhook signing secret cannot be used with the credential's API key (was the API key changed?). Deliveries are refused until it is replaced: rolling the signing secret of endpoint ${endpointId}.`,
		meta,
	);
	try {
		const remote = await fetchEndpoint.call(this, endpointId);
		if (!remote || !isOwnEndpoint(remote, workflow.id ?? '')) {
			this.logger.error(
				`${where}: endpoint ${endpointId} is gone or belongs to another workflow, so its secret is left alone. Deactivate and activate this workflow to register its own endpoint.`,
				meta,
			);
			return undefined;
		}
		const key = await sealingKey(this, endpointId);
		if (!key) throw new Error('the credential has no API key');
		const secret = await webhookEndpoints.rollSecret.call(this, endpointId);
		stored.secret = seal(secret, key);
		remember(opened, stored.secret, secret);
		this.logger.info(
			`${where}: rolled the signing secret of endpoint ${endpointId}; the API signs with both secrets for 24 hours, so deliveries refused meanwhile are accepted on their next retry.`,
			meta,
		);
		return secret;
	} catch (error) {
		this.logger.error(
			`${where}: could not roll the signing secret of endpoint ${endpointId}: ${(error as Error).message}. Deliveries are refused with 401 and retried by the API; the next repair is tried in ${REPAIR_INTERVAL_SECONDS} seconds (or deactivate and activate the workflow).`,
			meta,
		);
		return undefined;
	}
}
