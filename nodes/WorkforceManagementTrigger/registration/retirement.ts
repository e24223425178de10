/**
 * Make before break when a workflow is republished.
 *
 * n8n runs `delete()` and then `checkExists()`/`create()` when a published workflow is saved again
 * (2.8.4 on every republish, 2.41 when the trigger's settings changed), and runs the same `delete()`
 * for a deactivation: the two cannot be told apart when `delete()` runs. Deleting the endpoint then
 * would drop the API's queued retries, and every event emitted until `create()` would reach no
 * endpoint. So `delete()` only retires the registration: the endpoint stays, marked at the API as
 * retired (its description carries a token), and static data keeps the registration and the
 * duplicate memory (n8n saves it after `delete()`, for an activation in any process). When the
 * grace period ends, each endpoint retired then is deleted unless an activation kept it.
 *
 * An activation in this process takes the registration back, which stops the deletion. An
 * activation in another process (with several n8n mains, `delete()` runs on the main that got the
 * request and the activation on the leader) replaces the mark with `kept <token>`, which the
 * deletion reads at the API. A mark that is simply gone was written over by a recovery that read
 * the description before the mark landed: the deletion goes on (deletionVerdict). An endpoint
 * registered anew since is never deleted: only the endpoints retired by this `delete()` are. A
 * `checkExists()` in this process waits for the request of a deletion under way to end before it
 * reads the endpoint, so it never adopts what that request deletes.
 *
 * The API has no conditional requests: a claim landing between the deletion's read and its DELETE
 * would not be seen. So the mark carries the time of the deletion, and both sides keep to it
 * (deletionWindow.ts): the deletion sends its DELETE only if its read was answered within
 * `DELETION_WINDOW_SECONDS` of that time, and an activation in another process adopts only a
 * claim answered before that time or made after any such DELETE has landed; in between it
 * registers a new endpoint.
 *
 * The trade-offs: a deactivation deletes the endpoint `TRIGGER_DELAYS.republishGraceSeconds`
 * later; if n8n stops within that time, or the API answers the deletion's read too late, the
 * endpoint stays at the API (its deliveries fail and are retried) until the workflow is activated
 * again on this URL. An activation in another process from `CLOCK_SKEW_MARGIN_SECONDS` before the
 * deletion's time until the longest DELETE is over registers a new endpoint (the old one's queued
 * retries are dropped). What remains: mains whose clocks are more than `CLOCK_SKEW_MARGIN_SECONDS`
 * apart, or an API that applies a DELETE after the node stopped waiting for it.
 */
import { randomBytes } from 'node:crypto';
import type { IHookFunctions } from 'n8n-workflow';

import { editDescription, endpointMarkOf, withMark } from '../../shared/webhooks';
import { inBackground, TRIGGER_DELAYS } from '../background';
import { operatorLog } from '../operatorLog';
import {
	DELETION_WINDOW_SECONDS,
	deletionMayProceed,
	deletionVerdict,
	nowSeconds,
} from './deletionWindow';
import { deleteEndpoint, fetchEndpoint, listOwnEndpoints } from './endpointCalls';

/** A `delete()`'s scheduled deletion, which an activation in this process stops. */
interface RetiredRegistration {
	/** The deletion of its endpoints, once under way: a reclaim waits for it to end. */
	deletion?: Promise<void>;
}

/**
 * Per-process memory: registrations `delete()` retired, by workflow, node and webhook URL. An entry
 * lives from the `delete()` until the grace period's deletion has ended or an activation reclaimed
 * it: `TRIGGER_DELAYS.republishGraceSeconds` and a few API calls, so it holds the deactivations of
 * the last seconds. Per process because it is how an activation here stops the deletion this
 * process scheduled; an activation in another process claims the endpoint at the API instead.
 * Either reads the registration from static data, which `delete()` leaves as it is.
 */
const retiredRegistrations = new Map<string, RetiredRegistration>();

export function registrationKey(workflowId: string | undefined, nodeId: string, url: string) {
	return [workflowId ?? '', nodeId, url].join('\u0000');
}

/** The endpoints one `delete()` marked as retired, the token it marked them with, and when they go. */
export interface RetiredEndpoints {
	token: string;
	/** Epoch seconds, as the mark carries it. */
	deletionAt: number;
	endpointIds: string[];
}

/** When a `delete()` made now deletes its endpoints: after the grace period, in epoch seconds. */
export function deletionTime(): number {
	return nowSeconds() + TRIGGER_DELAYS.republishGraceSeconds;
}

/** Marks this trigger's endpoints at `url` as retired at the API, to be deleted at `dueAt` (epoch s). */
export async function markRetired(
	this: IHookFunctions,
	url: string,
	dueAt: number,
): Promise<RetiredEndpoints> {
	const token = randomBytes(8).toString('hex');
	// whole seconds, rounded down: the deletion, which waits for the exact time, never reads before
	// the written one
	const deletionAt = Math.floor(dueAt);
	const endpoints = await listOwnEndpoints.call(this, url);
	for (const endpoint of endpoints) {
		// a recovery's claim stays: it yields to the mark by itself (nodes/shared/webhooks/claim.ts)
		await editDescription.call(this, endpoint.id, (current) =>
			withMark(current, { kind: 'retired', token, deletionAt }),
		);
	}
	return { token, deletionAt, endpointIds: endpoints.map((endpoint) => endpoint.id) };
}

function warnLeftInPlace(this: IHookFunctions, endpointId: string, lateSeconds: number): void {
	const workflow = this.getWorkflow();
	this.logger.warn(
		`Webhook endpoint ${endpointId} of deactivated workflow "${workflow.name ?? ''}" (${workflow.id ?? ''}) is left in place: the API answered the deletion's check ${Math.round(lateSeconds)} s after the deletion was due, and past ${DELETION_WINDOW_SECONDS} s a DELETE could remove the endpoint after another n8n main adopted it. The next activation of this workflow on this URL adopts or deletes it; to remove it now, use the Workforce Management node (Webhook Endpoint → Delete).`,
		operatorLog(this).meta,
	);
}

/**
 * Deletes each endpoint of `marked` that no activation kept (deletionVerdict), unless
 * `stillRetired` says this process took the registration back meanwhile, or the API answered too
 * late for the DELETE to be safe from a claim (deletionWindow.ts); returns how many it deleted.
 */
export async function deleteUnclaimed(
	this: IHookFunctions,
	marked: RetiredEndpoints,
	stillRetired: () => boolean,
): Promise<number> {
	let deleted = 0;
	for (const endpointId of marked.endpointIds) {
		const remote = await fetchEndpoint.call(this, endpointId);
		const answeredAt = nowSeconds();
		if (remote === undefined) continue;
		if (deletionVerdict(marked, endpointMarkOf(remote.description)) !== 'delete') continue;
		if (!stillRetired()) return deleted;
		if (!deletionMayProceed(marked.deletionAt, answeredAt)) {
			warnLeftInPlace.call(this, endpointId, answeredAt - marked.deletionAt);
			continue;
		}
		await deleteEndpoint.call(this, endpointId);
		deleted++;
	}
	return deleted;
}

/**
 * Writes the mark again where it vanished without an activation keeping the endpoint: a recovery's
 * claim or release, from a read answered before the mark landed, was written over it. Run once a
 * recovery's write has had time to land (its settle time); the recovery reads its claim back after
 * the same time, finds the mark and stops before redelivering to the deactivated trigger.
 */
export async function restoreErasedMarks(
	this: IHookFunctions,
	marked: RetiredEndpoints,
	stillRetired: () => boolean,
): Promise<void> {
	const mark = { kind: 'retired' as const, token: marked.token, deletionAt: marked.deletionAt };
	for (const endpointId of marked.endpointIds) {
		if (!stillRetired()) return;
		await editDescription
			.call(this, endpointId, (current) => {
				const found = endpointMarkOf(current);
				const erased = found?.token !== marked.token && deletionVerdict(marked, found) === 'delete';
				return erased ? withMark(current, mark) : undefined;
			})
			.catch(() => undefined); // gone, or the API failing: the deletion reads it again
	}
}

/**
 * Runs `deleteEndpoints` at `deletionAt` (epoch seconds, `deletionTime()`) unless the registration
 * under `key` was reclaimed (or retired again) meanwhile; it stays reclaimable until
 * `deleteEndpoints` ends.
 */
export function retire(
	key: string,
	deleteEndpoints: (stillRetired: () => boolean) => Promise<void>,
	deletionAt: number,
): () => boolean {
	const entry: RetiredRegistration = {};
	retiredRegistrations.set(key, entry);
	const stillRetired = () => retiredRegistrations.get(key) === entry;
	const delaySeconds = Math.max(0, deletionAt - nowSeconds());
	inBackground('retirement', delaySeconds, async () => {
		if (!stillRetired()) return;
		entry.deletion = (async () => {
			try {
				await deleteEndpoints(stillRetired);
			} finally {
				if (stillRetired()) retiredRegistrations.delete(key);
			}
		})();
		await entry.deletion;
	});
	return stillRetired;
}

/**
 * Takes back the registration retired under `key` and not yet deleted: whether there was one. A
 * deletion already under way stops before its next DELETE; one in flight (or waiting to be sent
 * again after a 429) is waited for, so that the caller never adopts an endpoint that DELETE then
 * removes.
 */
export async function reclaim(key: string): Promise<boolean> {
	const entry = retiredRegistrations.get(key);
	retiredRegistrations.delete(key);
	await entry?.deletion?.catch(() => undefined);
	return entry !== undefined;
}
