/**
 * Make before break when a workflow is republished.
 *
 * n8n runs `delete()` and then `checkExists()`/`create()` when a published workflow is saved again
 * (2.8.4 on every republish, 2.41 when the trigger's settings changed), and runs the same `delete()`
 * for a deactivation: the two cannot be told apart when `delete()` runs. Deleting the endpoint then
 * would drop the API's queued retries, and every event emitted until `create()` would reach no
 * endpoint. So `delete()` only retires the registration: the endpoint stays, and this process keeps
 * what static data held. A `checkExists()` of the same registration within the grace period takes
 * it back; otherwise the endpoint is deleted when the period ends.
 *
 * The trade-off: a deactivation deletes the endpoint `TRIGGER_DELAYS.republishGraceSeconds` later, and if n8n
 * stops within that time the endpoint stays at the API (its deliveries fail and are retried) until
 * the workflow is activated again on this URL, which deletes it.
 */
import { inBackground, TRIGGER_DELAYS } from './background';
import type { TriggerStaticData } from './delivery';

interface Retired {
	registration: TriggerStaticData;
}

/** By registration: workflow, node and webhook URL. */
const retired = new Map<string, Retired>();

export function registrationKey(workflowId: string | undefined, nodeId: string, url: string) {
	return [workflowId ?? '', nodeId, url].join('\u0000');
}

/**
 * Keeps `registration` for the grace period, then runs `deleteEndpoint` unless the registration
 * was reclaimed (or retired again) meanwhile.
 */
export function retire(
	key: string,
	registration: TriggerStaticData,
	deleteEndpoint: (registration: TriggerStaticData) => Promise<void>,
): void {
	const entry: Retired = { registration };
	retired.set(key, entry);
	inBackground('retirement', TRIGGER_DELAYS.republishGraceSeconds, async () => {
		if (retired.get(key) !== entry) return;
		retired.delete(key);
		await deleteEndpoint(registration);
	});
}

/** The registration retired under `key` within the grace period, taken back; or undefined. */
export function reclaim(key: string): TriggerStaticData | undefined {
	const entry = retired.get(key);
	retired.delete(key);
	return entry?.registration;
}
