/**
 * Make before break when a workflow is republished.
 *
 * n8n runs `delete()` and then `checkExists()`/`create()` when a published workflow is saved again
 * (2.8.4 on every republish, 2.41 when the trigger's settings changed), and runs the same `delete()`
 * for a deactivation: the two cannot be told apart when `delete()` runs. Deleting the endpoint then
 * would drop the API's queued retries, and every event emitted until `create()` would reach no
 * endpoint. So `delete()` only retires the registration: the endpoint stays, marked at the API as
 * retired (its description carries a token), and this process keeps what static data held. When the
 * grace period ends, each endpoint retired then is deleted if it still carries that token.
 *
 * An activation that adopts a retired endpoint writes its description back, which claims it. The
 * claim is read from the API, not from this process: with several n8n mains, `delete()` runs on the
 * main that got the request and the activation on the leader. An endpoint registered anew since is
 * never deleted: only the endpoints retired by this `delete()` are. A `checkExists()` in this
 * process also takes back the static data it held (its secret and duplicate memory).
 *
 * The trade-offs: a deactivation deletes the endpoint `TRIGGER_DELAYS.republishGraceSeconds`
 * later, and if n8n stops within that time the endpoint stays at the API (its deliveries fail and
 * are retried) until the workflow is activated again on this URL. A claim made by another process
 * in the one API round trip between the deletion's read and its delete is not seen.
 */
import { randomBytes } from 'node:crypto';
import type { IHookFunctions } from 'n8n-workflow';

import { endpointDescription, retirementToken } from '../../shared/endpointDescription';
import * as webhookEndpoints from '../../shared/webhookEndpoints';
import { inBackground, TRIGGER_DELAYS } from '../background';
import { type RetiredRegistration, retiredRegistrations } from '../processMemory';
import type { TriggerStaticData } from '../staticData';
import { deleteEndpoint, fetchEndpoint, listOwnEndpoints } from './registration';

export function registrationKey(workflowId: string | undefined, nodeId: string, url: string) {
	return [workflowId ?? '', nodeId, url].join('\u0000');
}

/** The endpoints one `delete()` marked as retired, and the token it marked them with. */
export interface RetiredEndpoints {
	token: string;
	endpointIds: string[];
}

/** Marks this trigger's endpoints at `url` as retired at the API. */
export async function markRetired(this: IHookFunctions, url: string): Promise<RetiredEndpoints> {
	const token = randomBytes(8).toString('hex');
	const workflow = this.getWorkflow();
	const description = endpointDescription(workflow.id ?? '', workflow.name ?? '', token);
	const endpoints = await listOwnEndpoints.call(this, url);
	for (const endpoint of endpoints) {
		await webhookEndpoints.update.call(this, endpoint.id, { description });
	}
	return { token, endpointIds: endpoints.map((endpoint) => endpoint.id) };
}

/**
 * Deletes each endpoint of `marked` that still carries its token, unless `stillRetired` says this
 * process took the registration back meanwhile; returns how many it deleted.
 */
export async function deleteUnclaimed(
	this: IHookFunctions,
	marked: RetiredEndpoints,
	stillRetired: () => boolean,
): Promise<number> {
	let deleted = 0;
	for (const endpointId of marked.endpointIds) {
		const remote = await fetchEndpoint.call(this, endpointId);
		if (remote === undefined || retirementToken(remote.description) !== marked.token) continue;
		if (!stillRetired()) return deleted;
		await deleteEndpoint.call(this, endpointId);
		deleted++;
	}
	return deleted;
}

/**
 * Keeps `registration` for the grace period, then runs `deleteEndpoints` unless the registration
 * was reclaimed (or retired again) meanwhile; it stays reclaimable until `deleteEndpoints` ends.
 */
export function retire(
	key: string,
	registration: TriggerStaticData,
	deleteEndpoints: (registration: TriggerStaticData, stillRetired: () => boolean) => Promise<void>,
): void {
	const entry: RetiredRegistration = { registration };
	retiredRegistrations.set(key, entry);
	const stillRetired = () => retiredRegistrations.get(key) === entry;
	inBackground('retirement', TRIGGER_DELAYS.republishGraceSeconds, async () => {
		if (!stillRetired()) return;
		try {
			await deleteEndpoints(registration, stillRetired);
		} finally {
			if (stillRetired()) retiredRegistrations.delete(key);
		}
	});
}

/** The registration retired under `key` and not yet deleted, taken back; or undefined. */
export function reclaim(key: string): TriggerStaticData | undefined {
	const entry = retiredRegistrations.get(key);
	retiredRegistrations.delete(key);
	return entry?.registration;
}
