/**
 * Where the trigger's signing secret lives between the API and the signature check: sealed in
 * static data (sealing.ts), opened with a key derived from the node's credential, and kept opened
 * in this process so that deliveries cost no credential load (a database read in n8n).
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/transport';
import { openedSecrets, type UnopenedSecret, unopenedSecrets } from '../processMemory';
import type { StoredRegistration } from '../staticData';
import { deriveSealingKey, isSealed, open, seal } from './sealing';

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
 * How long a sealed value that did not open counts as such (processMemory.ts): after this long the
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
