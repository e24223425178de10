/**
 * n8n's webhook methods, and what each does here beyond its name:
 *
 * - `checkExists` (every activation, n8n's start included) does more than check. It takes back
 *   what a `delete()` in this process retired, adopts the endpoint static data names if it is this
 *   trigger's (events and enabled state patched in place; the mark of a deletion pending in
 *   another process replaced by `kept`, which claims the endpoint), rolls the secret when the
 *   stored one no longer opens or is not the one the API signs with, and schedules the recovery of
 *   missed events (recovery/). It answers `false`
 *   when nothing usable exists, or when a deletion pending in another process may still remove the
 *   endpoint (registration/deletionWindow.ts).
 * - `create` (after a `false`) deletes this trigger's endpoints it no longer knows and registers one.
 * - `delete` (a deactivation, and every republish before its `checkExists`) does not delete at
 *   once: it clears static data, marks the endpoint retired at the API with a token, and deletes it
 *   after a grace period unless an activation claimed it meanwhile (registration/retirement.ts);
 *   2 s after, it writes its mark again where a recovery's write erased it.
 *
 * Beside them, n8n runs the node's `trigger()` when it publishes the workflow: the check of the
 * endpoint on a schedule (recovery/endpointWatch.ts).
 *
 * Why: n8n runs the same `delete()` for a deactivation and a republish. Deleting at once would drop
 * the API's queued retries and lose the events emitted until `create()`; adopting in
 * `checkExists` keeps the endpoint, its secret and its retries.
 */
import type { IHookFunctions } from 'n8n-workflow';

import {
	describesWorkflow,
	type RetirementMark,
	retirementMarkOf,
	withMark,
} from '../shared/endpointDescription';
import * as webhookEndpoints from '../shared/webhookEndpoints';
import { forgetAcceptedEnvelopes } from './duplicates/envelopeMemory';
import {
	createEndpoint,
	deleteOwnEndpoints,
	fetchEndpoint,
	isOwnEndpoint,
	reconcile,
	type RemoteEndpoint,
	wantedRegistration,
	warnOfEndpointElsewhere,
} from './registration/registration';
import { inBackground, TRIGGER_DELAYS } from './background';
import { operatorLog } from './operatorLog';
import { recoverMissedEventsAfterActivation } from './recovery/recovery';
import { claimHolds } from './registration/deletionWindow';
import {
	deleteUnclaimed,
	deletionTimeMs,
	markRetired,
	reclaim,
	registrationKey,
	restoreErasedMarks,
	type RetiredEndpoints,
	retire,
} from './registration/retirement';
import { type StoredRegistration, type TriggerStaticData, triggerStaticData } from './staticData';
import { forgetOpenedSecret, openStoredSecret, sealSecret } from './verification/secretStore';

function webhookUrl(context: IHookFunctions): string {
	return context.getNodeWebhookUrl('default') as string;
}

function keyOf(context: IHookFunctions): string {
	return registrationKey(context.getWorkflow().id, context.getNode().id, webhookUrl(context));
}

/**
 * The endpoint static data names, if it still exists and is this trigger's. One that delivers
 * elsewhere or belongs to another workflow (static data copied with a duplicated or imported
 * workflow, a staging copy of production) is left alone, and this trigger registers its own.
 */
async function storedOwnEndpoint(
	this: IHookFunctions,
	staticData: TriggerStaticData,
): Promise<RemoteEndpoint | undefined> {
	if (!staticData.endpointId) return undefined;
	const remote = await fetchEndpoint.call(this, staticData.endpointId);
	if (!remote || isOwnEndpoint(remote, this.getWorkflow().id ?? '', webhookUrl(this)))
		return remote;
	if (describesWorkflow(remote.description, this.getWorkflow().id ?? '')) {
		warnOfEndpointElsewhere.call(this, remote, webhookUrl(this));
	} else {
		this.logger.warn(
			`Webhook endpoint ${remote.id} named in this trigger's static data belongs to another workflow; it is left alone`,
			operatorLog(this).meta,
		);
	}
	return undefined;
}

/** What static data keeps of the endpoint; the duplicate memory (`seenEnvelopes`) sits beside it. */
const ENDPOINT_FIELDS = ['endpointId', 'secret', 'url', 'events'] as const satisfies ReadonlyArray<
	keyof StoredRegistration
>;

/** What static data holds of the registration, duplicate memory included, as a plain copy. */
function registrationOf(staticData: TriggerStaticData): TriggerStaticData {
	const copy: Record<string, unknown> = {};
	for (const field of [...ENDPOINT_FIELDS, 'seenEnvelopes'] as const) {
		if (staticData[field] !== undefined) copy[field] = staticData[field];
	}
	return JSON.parse(JSON.stringify(copy)) as TriggerStaticData;
}

function forgetRegistration(staticData: TriggerStaticData): void {
	for (const field of ENDPOINT_FIELDS) delete staticData[field];
}

const nowSeconds = () => Date.now() / 1000;

/**
 * Whether a claim on an endpoint carrying `mark` (a deletion pending in another process, or none)
 * keeps it, the claim sent at `sentAt` and answered now; the endpoint is named in the log if not.
 */
function keepsClaim(
	this: IHookFunctions,
	endpointId: string,
	mark: RetirementMark | undefined,
	sentAt: number,
): boolean {
	if (mark?.deletionAt === undefined || claimHolds(mark, { sentAt, answeredAt: nowSeconds() }))
		return true;
	this.logger.debug(
		`Webhook endpoint ${endpointId} is to be deleted by a deactivation in another n8n process at ${new Date(mark.deletionAt * 1000).toISOString()}, which may remove it even once claimed; a new endpoint is registered instead`,
		operatorLog(this).meta,
	);
	return false;
}

/**
 * The description that claims an endpoint whose deletion is pending in another process: `kept`
 * with that deletion's token, which the deletion reads as an activation's claim. Without it, a
 * vanished mark could be a recovery's write over it (registration/retirement.ts).
 */
function keptFrom(
	pendingElsewhere: RetirementMark | undefined,
	description: string | undefined,
): { description?: string } {
	if (pendingElsewhere === undefined || description === undefined) return {};
	return { description: withMark(description, { kind: 'kept', ...pendingElsewhere }) };
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const staticData = triggerStaticData(this);
	const reclaimed = await reclaim(keyOf(this));
	if (reclaimed) Object.assign(staticData, reclaimed);
	const wanted = wantedRegistration.call(this);
	const remote = await storedOwnEndpoint.call(this, staticData);

	// reconcile judges the secret in the clear; one that no longer opens (another API key) is lost
	const secret = await openStoredSecret.call(this, staticData);
	const plan = reconcile({ ...staticData, secret }, remote, wanted);
	// a deletion this process reclaimed is stopped; one pending elsewhere is judged by its time
	const pendingElsewhere = reclaimed ? undefined : retirementMarkOf(remote?.description ?? null);
	if (
		remote === undefined ||
		plan.kind === 'create' ||
		!keepsClaim.call(this, remote.id, pendingElsewhere, nowSeconds())
	) {
		forgetRegistration(staticData);
		return false;
	}
	if (plan.roll) {
		// before enabling, so the retries it releases are signed with a secret this trigger holds
		const rolled = await webhookEndpoints.rollSecret.call(this, remote.id);
		staticData.secret = await sealSecret.call(this, remote.id, rolled);
	}
	const claimSentAt = nowSeconds();
	if (Object.keys(plan.changes).length > 0) {
		await webhookEndpoints.update.call(this, remote.id, {
			...plan.changes,
			...keptFrom(pendingElsewhere, plan.changes.description),
		});
	}
	if (!keepsClaim.call(this, remote.id, pendingElsewhere, claimSentAt)) {
		// create() deletes it with this trigger's other endpoints at the URL
		forgetRegistration(staticData);
		return false;
	}
	staticData.url = wanted.url;
	staticData.events = wanted.events;
	const found = remote.enabled ? undefined : { reason: remote.disabled_reason };
	recoverMissedEventsAfterActivation.call(this, staticData, remote.id, found);
	return true;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const staticData = triggerStaticData(this);
	const wanted = wantedRegistration.call(this);
	await deleteOwnEndpoints.call(this, wanted.url);

	const endpoint = await createEndpoint.call(this, wanted);
	staticData.endpointId = endpoint.id;
	staticData.secret = await sealSecret.call(this, endpoint.id, endpoint.secret);
	staticData.url = wanted.url;
	staticData.events = wanted.events;
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
 * Clears static data at once (a deactivated workflow keeps no secret and no memory), marks the
 * endpoint retired at the API, and deletes it after the grace period unless an activation has
 * claimed it meanwhile, in this process or another.
 */
async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const staticData = triggerStaticData(this);
	const registration = registrationOf(staticData);
	forgetRegistration(staticData);
	forgetAcceptedEnvelopes(staticData);
	const deletionAtMs = deletionTimeMs();
	let marked: RetiredEndpoints | undefined;
	try {
		marked = await markRetired.call(this, webhookUrl(this), deletionAtMs);
	} catch (error) {
		warnNotDeleted.call(this, error);
	}
	const stillRetired = retire(
		keyOf(this),
		registration,
		async (retired, stillRetired) => {
			if (marked === undefined) return;
			try {
				await deleteUnclaimed.call(this, marked, stillRetired);
				if (stillRetired()) forgetOpenedSecret(retired.secret);
			} catch (error) {
				warnNotDeleted.call(this, error);
			}
		},
		deletionAtMs,
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
