/**
 * What a webhook process does when the stored signing secret may not be the one the API signs
 * with, judged by the endpoint's `secret_preview` (its last four characters).
 *
 * Several webhook processes repair at once and save static data over each other, so the stored
 * secret can be one a process rolled earlier than the API's current one. The process that rolled
 * last holds the current secret in memory and is the one to store it again (`adopt`). A stored
 * secret that is stale but still signs (the API keeps a replaced secret signing for 24 hours) is
 * left for that process (`wait`): rolling again would only make another stale secret. Only a
 * stored secret that no longer verifies, or cannot be opened, is rolled by whoever sees it.
 */
import { secretMatchesPreview } from '../secrets/secretStore';

export interface RepairSituation {
	/** The stored secret in the clear; `undefined` when it cannot be opened. */
	stored: string | undefined;
	/** Whether the stored secret verified the delivery that led here. */
	storedVerifies: boolean;
	/** The endpoint's masked secret as the API shows it now. */
	preview: string | undefined;
	/** Secrets this process rolled, oldest first. */
	rolled: string[];
}

export type RepairDecision =
	| { action: 'keep' }
	| { action: 'wait' }
	| { action: 'adopt'; secret: string }
	| { action: 'roll' };

export function decideRepair(situation: RepairSituation): RepairDecision {
	const { stored, storedVerifies, preview, rolled } = situation;
	if (stored !== undefined && secretMatchesPreview(stored, preview)) return { action: 'keep' };
	const held = [...rolled].reverse().find((secret) => secretMatchesPreview(secret, preview));
	if (held !== undefined) return { action: 'adopt', secret: held };
	if (stored !== undefined && storedVerifies) return { action: 'wait' };
	return { action: 'roll' };
}
