/**
 * n8n's webhook methods, and what each does here beyond its name:
 *
 * - `checkExists` (every activation, n8n's start included) does more than check. It stops the
 *   deletion a `delete()` in this process scheduled, adopts the endpoint static data names if it
 *   is this trigger's (registration/adoption.ts), and schedules the recovery of missed events
 *   (recovery/).
 *   It answers `false` when nothing usable exists, or when a deletion pending in another process
 *   may still remove the endpoint (registration/deletionWindow.ts).
 * - `create` (after a `false`) deletes this trigger's endpoints it no longer knows and registers one.
 * - `delete` (a deactivation, and every republish before its `checkExists`) does not delete at
 *   once: it marks the endpoint retired at the API with a token, and deletes it after a grace
 *   period unless an activation claimed it meanwhile (registration/retirement.ts); 2 s after, it
 *   writes its mark again where a recovery's write erased it. Static data keeps the registration
 *   and the duplicate memory: n8n saves it after `delete()`, and with several mains the activation
 *   of a republish reads it in another process.
 *
 * Beside them, n8n runs the node's `trigger()` when it publishes the workflow: the check of the
 * endpoint on a schedule (recovery/endpointWatch.ts).
 *
 * Why: n8n runs the same `delete()` for a deactivation and a republish. Deleting at once would drop
 * the API's queued retries and lose the events emitted until `create()`; adopting in
 * `checkExists` keeps the endpoint, its secret and its retries.
 */
import type { IHookFunctions } from 'n8n-workflow';

import { inBackground, TRIGGER_DELAYS } from './background';
import { operatorLog } from './operatorLog';
import { recoverMissedEventsAfterActivation } from './recovery/recovery';
import {
	adoptStoredEndpoint,
	deleteUnclaimed,
	deletionTime,
	markRetired,
	reclaim,
	registerEndpoint,
	registrationKey,
	restoreErasedMarks,
	type RetiredEndpoints,
	retire,
	webhookUrlOf,
} from './registration';
import { forgetOpenedSecret } from './secrets/secretStore';
import { triggerStaticData } from './staticData';

function keyOf(context: IHookFunctions): string {
	return registrationKey(context.getWorkflow().id, context.getNode().id, webhookUrlOf(context));
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const staticData = triggerStaticData(this);
	const reclaimed = await reclaim(keyOf(this));
	const adopted = await adoptStoredEndpoint.call(this, staticData, reclaimed);
	if (adopted === undefined) return false;
	const foundDisabled = adopted.enabled ? undefined : adopted;
	recoverMissedEventsAfterActivation.call(this, staticData, adopted.id, foundDisabled);
	return true;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	await registerEndpoint.call(this, triggerStaticData(this));
	return true;
}

function warnNotDeleted(this: IHookFunctions, error: unknown): void {
	const workflow = this.getWorkflow();
	this.logger.error(
		`Could not delete the webhook endpoint of deactivated workflow "${workflow.name ?? ''}" (${workflow.id ?? ''}): ${(error as Error).message}. Delete it with the Workforce Management node (Webhook Endpoint → Delete), or activate and deactivate the workflow again.`,
		operatorLog(this).meta,
	);
}

/**
 * Marks the endpoint retired at the API, and deletes it after the grace period unless an
 * activation has claimed it meanwhile, in this process or another. Static data is left as it is:
 * a republish's activation on another main adopts the endpoint it names, with the secret and the
 * duplicate memory (so a retry of an event that ran is still ignored there). After a deactivation
 * the sealed secret of a deleted endpoint opens nothing, and the next activation, finding the
 * endpoint gone, registers a new one and drops both (registration/adoption.ts).
 */
async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const sealedSecret = triggerStaticData(this).secret;
	const deletionAt = deletionTime();
	let marked: RetiredEndpoints | undefined;
	try {
		marked = await markRetired.call(this, webhookUrlOf(this), deletionAt);
	} catch (error) {
		warnNotDeleted.call(this, error);
	}
	const stillRetired = retire(
		keyOf(this),
		async (stillRetired) => {
			if (marked === undefined) return;
			try {
				await deleteUnclaimed.call(this, marked, stillRetired);
				if (stillRetired()) forgetOpenedSecret(sealedSecret);
			} catch (error) {
				warnNotDeleted.call(this, error);
			}
		},
		deletionAt,
	);
	if (marked !== undefined) {
		const retired = marked;
		inBackground('retirement', TRIGGER_DELAYS.recoveryLeaseSettleSeconds, async () => {
			await restoreErasedMarks.call(this, retired, stillRetired);
		});
	}
	return true;
}
export { deleteRegistration as delete };
