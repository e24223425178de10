/**
 * Where the trigger's signing secret lives between the API and the signature check: sealed in
 * static data (sealing.ts), opened with a key derived from the node's credential, and kept opened
 * in this process so that deliveries cost no credential load (a database read in n8n); and whether
 * a secret is the one the API signs with.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/transport';
import { BoundedMap, PER_PROCESS_ENTRIES } from '../boundedMap';
import type { StoredRegistration } from '../staticData';
import { deriveSealingKey, isSealed, open, seal } from './sealing';

/**
 * Per-process memory: signing secrets in the clear, by their sealed value (unique per seal, random
 * IV; never keyed by anything in the clear). At most `PER_PROCESS_ENTRIES`; writing a new one drops
 * the one written longest ago. Per process because a secret in the clear is never stored; it spares
 * each delivery a credential load (a database read in n8n).
 */
const openedSecrets = new BoundedMap<string, string>(PER_PROCESS_ENTRIES);

/** Why a sealed secret gave no secret in the clear. */
export type UnopenedSecret = 'unusable' | 'credential_unavailable';

/**
 * Per-process memory: sealed values that did not open, why, and when that was found: forged
 * traffic against an unusable secret must not cost a credential load each. At most
 * `PER_PROCESS_ENTRIES`, the one written longest ago dropped; a verdict counts for
 * `UNUSABLE_VERDICT_SECONDS`. Per process: a cache of a judgement any process can make again.
 */
const unopenedSecrets = new BoundedMap<string, { failure: UnopenedSecret; atSeconds: number }>(
	PER_PROCESS_ENTRIES,
);

/**
 * Whether a secret is the one the API currently signs with, judged by the masked preview the API
 * shows. Without a readable preview there is no evidence of a roll, so the secret is trusted.
 */
export function secretMatchesPreview(secret: string, preview: string | undefined): boolean {
	const visibleTail = /(?:…|\.\.\.)([^.…]+)$/.exec(preview ?? '')?.[1];
	return visibleTail === undefined || secret.endsWith(visibleTail);
}

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
	this: NodeContext,
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
	const sealed = seal(secret, key);
	openedSecrets.set(sealed, secret);
	return sealed;
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
 * How long a sealed value that did not open counts as such (above): after this long the
 * credential is tried again (it may have been corrected meanwhile).
 */
export const UNUSABLE_VERDICT_SECONDS = 60;

/** Drops a secret from the process cache (deactivation). */
export function forgetOpenedSecret(sealed: unknown): void {
	if (typeof sealed === 'string') openedSecrets.delete(sealed);
}

/** The stored secret in the clear for a delivery, or why there is none. */
export async function openForDelivery(
	context: IWebhookFunctions,
	sealed: unknown,
	endpointId: string,
	nowSeconds: number,
): Promise<{ secret: string } | UnopenedSecret> {
	if (!isSealed(sealed)) return 'unusable';
	const cached = openedSecrets.get(sealed);
	if (cached !== undefined) return { secret: cached };
	const earlier = unopenedSecrets.get(sealed);
	if (earlier && nowSeconds - earlier.atSeconds < UNUSABLE_VERDICT_SECONDS) return earlier.failure;

	let key: Buffer | undefined;
	try {
		key = await sealingKey(context, endpointId);
	} catch {
		unopenedSecrets.set(sealed, { failure: 'credential_unavailable', atSeconds: nowSeconds });
		return 'credential_unavailable';
	}
	const secret = key && open(sealed, key);
	if (secret === undefined) {
		unopenedSecrets.set(sealed, { failure: 'unusable', atSeconds: nowSeconds });
		return 'unusable';
	}
	unopenedSecrets.delete(sealed);
	openedSecrets.set(sealed, secret);
	return { secret };
}
