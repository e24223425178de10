/**
 * A clock of its own for one harness "process" (a `LiveTrigger`): while its `webhook()` runs,
 * `Date` reads `offsetSeconds` later (or earlier) than everyone else's, and is put back once it
 * returns. Needs `useMovableDate()` (only `Date` is faked, and `jest.setSystemTime` moves it).
 *
 * How it differs from two real processes: a test has one `Date`, so the offset holds for whatever
 * runs meanwhile (the in-process sandbox included), and only while that process's `webhook()` runs
 * (the node reads the clock there; the receiver's save and answer come after, on the shared clock).
 * So requests of processes with different clocks must not overlap: one that would is refused with
 * an error (the receiver answers it 500), and a test cannot pass on a clock its process did not have.
 */
import type { LiveTrigger } from './engine/trigger-receiver';

let running: { offsetMs: number; requests: number } | undefined;

function enter(offsetMs: number): void {
	if (running && running.offsetMs !== offsetMs) {
		throw new Error(
			'skewed clocks: requests of processes with different clocks overlapped; the harness has one Date, deliver to them one at a time',
		);
	}
	if (running) {
		running.requests++;
		return;
	}
	running = { offsetMs, requests: 1 };
	jest.setSystemTime(Date.now() + offsetMs);
}

function leave(): void {
	if (!running || --running.requests > 0) return;
	jest.setSystemTime(Date.now() - running.offsetMs);
	running = undefined;
}

/** Runs `trigger`'s requests on a clock `offsetSeconds` off the test's (negative: behind). */
export function withSkewedClock(trigger: LiveTrigger, offsetSeconds: number): LiveTrigger {
	const runWebhook = trigger.runWebhook.bind(trigger);
	trigger.runWebhook = async (...args: Parameters<LiveTrigger['runWebhook']>) => {
		enter(offsetSeconds * 1000);
		try {
			return await runWebhook(...args);
		} finally {
			leave();
		}
	};
	return trigger;
}
