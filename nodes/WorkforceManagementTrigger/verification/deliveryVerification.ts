/**
 * A delivery's signature checked against the stored secret, and what the outcome tells the secret
 * repair (secretRepair.ts): a stored secret that cannot be opened, one that fails to verify, and
 * one that verified while the API signed with other secrets too (a roll in the last 24 hours) may
 * not be the secret the API signs with. A verified delivery signed with one secret costs nothing.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap, PER_PROCESS_ENTRIES } from '../boundedMap';
import { openForDelivery } from '../secrets/secretStore';
import type { StoredRegistration } from '../staticData';
import { REPAIR_INTERVAL_SECONDS, repairSecret, restoreRepairedSecret } from './secretRepair';
import {
	parseSignatureHeader,
	type SignatureCheck,
	type SignatureVerdict,
	verifySignature,
} from './signature';

export type DeliveryCheck = Omit<SignatureCheck, 'secrets'>;

/**
 * Verifies with the stored secret, repairing it where the outcome calls for it. A refusal for want
 * of any usable secret (`no_secret`) has been reported here already, at most once a minute.
 */
export async function verifyDelivery(
	this: IWebhookFunctions,
	stored: StoredRegistration,
	check: DeliveryCheck,
): Promise<SignatureVerdict> {
	const verify = (secret: string | undefined) =>
		verifySignature({ ...check, secrets: secret === undefined ? [] : [secret] });
	const { endpointId } = stored;
	if (typeof endpointId !== 'string' || endpointId === '') {
		reportNoSecret(this, 'static data names no webhook endpoint', check.nowSeconds);
		return verify(undefined);
	}

	const restored = restoreRepairedSecret(stored, endpointId);
	const opened =
		restored === undefined
			? await openForDelivery(this, stored.secret, endpointId, check.nowSeconds)
			: { secret: restored };
	if (opened === 'credential_unavailable') {
		reportNoSecret(this, 'the credential could not be loaded', check.nowSeconds);
		return verify(undefined);
	}
	if (opened === 'unusable') {
		const occasion = { stored: undefined, storedVerifies: false };
		return verify(await repairSecret.call(this, stored, endpointId, occasion, check.nowSeconds));
	}

	const verdict = verify(opened.secret);
	const suspicious = verdict.valid
		? (parseSignatureHeader(check.header)?.signatures.length ?? 0) > 1
		: verdict.reason === 'signature_mismatch';
	if (!suspicious) return verdict;
	const occasion = { stored: opened.secret, storedVerifies: verdict.valid };
	const repaired = await repairSecret.call(this, stored, endpointId, occasion, check.nowSeconds);
	return verdict.valid || repaired === undefined ? verdict : verify(repaired);
}

/**
 * Per-process memory: when a refusal for want of a secret (`no_secret`) was last logged, by
 * workflow and node: at most once a minute. At most `PER_PROCESS_ENTRIES`, the one written longest
 * ago dropped. Per process because it limits this process's log lines.
 */
const noSecretReportedAt = new BoundedMap<string, number>(PER_PROCESS_ENTRIES);

function reportNoSecret(context: IWebhookFunctions, reason: string, nowSeconds: number): void {
	const workflowId = context.getWorkflow().id;
	const key = `${workflowId ?? ''}:${context.getNode().id}`;
	const last = noSecretReportedAt.get(key);
	if (last !== undefined && nowSeconds - last < REPAIR_INTERVAL_SECONDS) return;
	noSecretReportedAt.set(key, nowSeconds);
	context.logger.warn(`Refused webhook deliveries: ${reason} (no_secret)`, {
		workflowId,
		node: context.getNode().name,
	});
}
