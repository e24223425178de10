/**
 * One recovery of missed events at a time per endpoint, across n8n processes and mains. The API
 * offers no lock, so the endpoint's description carries a claim (endpointDescription.ts): a
 * recovery writes its own, waits long enough for any other that started at the same moment to
 * have written theirs, then reads it back. The last write wins, and only its writer goes on; one
 * that finds a live claim of another does not start. A claim that outlives its holder (n8n
 * stopped mid-recovery) expires after `ttlSeconds`.
 */
import { randomBytes } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import {
	type RecoveryClaim,
	recoveryClaimOf,
	withRecoveryClaim,
	withoutRecoveryClaim,
} from './endpointDescription';
import type { WorkforceApiContext } from './transport';
import * as webhookEndpoints from './webhookEndpoints';

export const RECOVERY_LEASE = {
	/** Longer than a claim's read and write take: contenders starting together all wrote by then. */
	settleSeconds: 2,
	/** A claim older than this is taken for one whose holder stopped. */
	ttlSeconds: 600,
};

export interface RecoveryLease {
	/** Whether the claim is still this recovery's (checked before each redelivery). */
	held(): Promise<boolean>;
	/** Removes the claim if it is still this recovery's. */
	release(): Promise<void>;
}

async function currentDescription(this: WorkforceApiContext, endpointId: string) {
	const endpoint = await webhookEndpoints.get.call(this, endpointId);
	return (endpoint.description as string | null | undefined) ?? null;
}

/** The lease, or `undefined` when another recovery holds the endpoint. */
export async function acquireRecoveryLease(
	this: WorkforceApiContext,
	endpointId: string,
	settleSeconds: number = RECOVERY_LEASE.settleSeconds,
): Promise<RecoveryLease | undefined> {
	const before = await currentDescription.call(this, endpointId);
	const held = recoveryClaimOf(before);
	if (held && held.untilMs > Date.now()) return undefined;

	const claim: RecoveryClaim = {
		token: randomBytes(6).toString('hex'),
		untilMs: Date.now() + RECOVERY_LEASE.ttlSeconds * 1000,
	};
	await webhookEndpoints.update.call(this, endpointId, {
		description: withRecoveryClaim(before, claim),
	});
	await sleep(settleSeconds * 1000);

	const isOurs = async () => {
		const now = recoveryClaimOf(await currentDescription.call(this, endpointId));
		return now?.token === claim.token && now.untilMs > Date.now();
	};
	if (!(await isOurs())) return undefined;
	return {
		held: isOurs,
		release: async () => {
			const description = await currentDescription.call(this, endpointId);
			if (recoveryClaimOf(description)?.token !== claim.token) return;
			await webhookEndpoints.update.call(this, endpointId, {
				description: withoutRecoveryClaim(description) || null,
			});
		},
	};
}
