/**
 * One recovery of missed events at a time per endpoint, across n8n processes and mains. The API
 * offers no lock, so the endpoint's description carries a claim (description.ts): a
 * recovery writes its own, waits long enough for any other that started at the same moment to
 * have written theirs, then reads it back. The last write wins, and only its writer goes on; one
 * that finds a live claim of another does not start.
 *
 * A claim lives `ttlSeconds` on its writer's clock. A reader takes a claim whose time has passed
 * for one whose holder stopped, and a claim further ahead than `ttlSeconds` plus the clocks' margin
 * for one left by a process whose clock ran ahead (n8n's log says so): both are taken over.
 *
 * A claim yields to a deactivation: none is taken on an endpoint whose deletion is pending, and a
 * holder that finds the retirement mark stops before its next redelivery and leaves the claim (an
 * activation that adopts the endpoint removes it). So neither the claim nor its release is ever
 * written over a description that carried the mark when it was read.
 */
import { randomBytes } from 'node:crypto';
import { sleep } from 'n8n-workflow';

import type { WorkforceApiContext } from '../transport';
import { CLOCK_SKEW_MARGIN_SECONDS, currentDescription, editDescription } from './descriptionEdit';
import {
	type RecoveryClaim,
	recoveryClaimOf,
	retirementMarkOf,
	withRecoveryClaim,
	withoutRecoveryClaim,
} from './description';

export const RECOVERY_LEASE = {
	/** Longer than a claim's read and write take: contenders starting together all wrote by then. */
	settleSeconds: 2,
	/** How long a claim lives: a holder that stopped (n8n stopped mid-recovery) blocks no longer. */
	ttlSeconds: 600,
};

/**
 * - `live`: another recovery holds the endpoint;
 * - `expired`: its time has passed (its holder stopped);
 * - `stale`: its time lies further ahead than any claim lives, plus the clocks' margin.
 */
export type ClaimState = 'none' | 'live' | 'expired' | 'stale';

export function claimState(claim: RecoveryClaim | undefined, nowMs: number): ClaimState {
	if (claim === undefined) return 'none';
	if (claim.untilMs <= nowMs) return 'expired';
	const longest = (RECOVERY_LEASE.ttlSeconds + CLOCK_SKEW_MARGIN_SECONDS) * 1000;
	return claim.untilMs > nowMs + longest ? 'stale' : 'live';
}

/** Whether `description` shows the claim `token` still holding: in time, and no deletion pending. */
export function claimHeld(description: string | null, token: string, nowMs: number): boolean {
	const claim = recoveryClaimOf(description);
	return (
		claim?.token === token &&
		claimState(claim, nowMs) === 'live' &&
		retirementMarkOf(description) === undefined
	);
}

export interface RecoveryLease {
	/** Whether the claim is still this recovery's (checked before each redelivery). */
	held(): Promise<boolean>;
	/** Removes the claim if it is still this recovery's and no deletion is pending. */
	release(): Promise<void>;
}

function warnStaleClaim(this: WorkforceApiContext, endpointId: string, claim: RecoveryClaim) {
	this.logger.warn(
		`The recovery claim on webhook endpoint ${endpointId} runs until ${new Date(claim.untilMs).toISOString()}, further ahead than a claim lives (${RECOVERY_LEASE.ttlSeconds} s, plus ${CLOCK_SKEW_MARGIN_SECONDS} s for clocks apart): it was left by an n8n process whose clock ran ahead, and is taken over.`,
		{ endpointId },
	);
}

/** The claim written now, or `undefined` when the description refuses one. */
function claimOn(
	this: WorkforceApiContext,
	endpointId: string,
	current: string | null,
	token: string,
): string | undefined {
	if (retirementMarkOf(current) !== undefined) return undefined;
	const held = recoveryClaimOf(current);
	const nowMs = Date.now();
	const state = claimState(held, nowMs);
	if (state === 'live') return undefined;
	if (state === 'stale') warnStaleClaim.call(this, endpointId, held!);
	const claim = { token, untilMs: nowMs + RECOVERY_LEASE.ttlSeconds * 1000 };
	return withRecoveryClaim(current, claim);
}

/**
 * The lease, or `undefined` when another recovery holds the endpoint or its deletion is pending.
 */
export async function acquireRecoveryLease(
	this: WorkforceApiContext,
	endpointId: string,
	settleSeconds: number = RECOVERY_LEASE.settleSeconds,
): Promise<RecoveryLease | undefined> {
	const token = randomBytes(6).toString('hex');
	const written = await editDescription.call(this, endpointId, (current) =>
		claimOn.call(this, endpointId, current, token),
	);
	if (written === undefined) return undefined;
	await sleep(settleSeconds * 1000);

	const held = async () =>
		claimHeld(await currentDescription.call(this, endpointId), token, Date.now());
	if (!(await held())) return undefined;
	return {
		held,
		release: async () => {
			await editDescription.call(this, endpointId, (current) =>
				recoveryClaimOf(current)?.token === token && retirementMarkOf(current) === undefined
					? withoutRecoveryClaim(current)
					: undefined,
			);
		},
	};
}
