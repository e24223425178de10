/**
 * Work the trigger does after n8n's call to it has returned, after a delay: deleting a retired
 * endpoint once no republish took it back (retirement.ts), and recovering missed events once n8n
 * has saved what activation wrote to static data (recovery.ts). No timers here: `sleep` from
 * n8n-workflow.
 */
import { sleep } from 'n8n-workflow';

export type BackgroundWork = 'retirement' | 'recovery' | 'endpointCheck';

/**
 * Per-process memory: the delayed work this process started and that has not ended yet, by its
 * promise. An entry is removed when its work ends, so it holds the retirements, recoveries and
 * checks under way. Per process because it is this process's promises (tests wait for them).
 */
const backgroundWork = new Map<Promise<void>, BackgroundWork>();

/** Longer than n8n takes from `delete()` to the `checkExists()` of a republish (about 1 s). */
export const SHIPPED_REPUBLISH_GRACE_SECONDS = 10;

export const TRIGGER_DELAYS = {
	republishGraceSeconds: SHIPPED_REPUBLISH_GRACE_SECONDS,
	/**
	 * Longer than n8n takes to save static data after `checkExists()` returned: a redelivery
	 * arriving before that save would load static data without the secret the activation rolled.
	 */
	recoveryAfterActivationSeconds: 3,
	/** How long a recovery waits after claiming its endpoint before it reads the claim back (recoveryLease.ts). */
	recoveryLeaseSettleSeconds: 2,
};

export function inBackground(
	kind: BackgroundWork,
	delaySeconds: number,
	work: () => Promise<void>,
): void {
	const done = (async () => {
		await sleep(delaySeconds * 1000);
		await work();
	})();
	backgroundWork.set(done, kind);
	void done.finally(() => backgroundWork.delete(done));
}

/** Resolves once the work of `kind` started so far has ended (for tests). */
export async function backgroundSettled(kind: BackgroundWork): Promise<void> {
	await Promise.allSettled(
		[...backgroundWork].filter(([, each]) => each === kind).map(([done]) => done),
	);
}
