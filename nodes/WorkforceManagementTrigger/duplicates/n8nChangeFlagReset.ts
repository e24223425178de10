/**
 * n8n 2.36+ (measured on 2.41.1) forgets that `webhook()` changed static data: starting the
 * execution (`WorkflowRunner.run` → `establishContextForPersistence`) wraps the same static data
 * object in a second `Workflow`, whose `ObservableObject.create` resets `__dataChanged`, and the
 * webhook service then skips its save. Without the save a duplicate sent later (after a restart,
 * or to another webhook process) runs again.
 *
 * Writing the memory again once the reset has happened marks it changed again. The reset comes a
 * few promise turns after `webhook()` returns, before any I/O; the save only after the execution is
 * stored, so both re-marks land in between. Harmless where n8n keeps the flag (2.8): the save
 * happens either way.
 */
import { sleep } from 'n8n-workflow';

import type { DuplicateMemoryStaticData } from '../staticData';

/** More promise turns than n8n 2.41 takes from `webhook()` returning to the flag's reset. */
const RUNNER_START_PROMISE_TURNS = 64;

export function keepMarkedChangedPastRunnerStart(staticData: DuplicateMemoryStaticData): void {
	const markChanged = () => {
		const memory = staticData.seenEnvelopes;
		if (memory !== undefined) staticData.seenEnvelopes = memory;
	};
	void (async () => {
		for (let turn = 0; turn < RUNNER_START_PROMISE_TURNS; turn++) await Promise.resolve();
		markChanged();
		await sleep(0);
		markChanged();
	})();
}
