import {
	ACCEPTED_ENVELOPES_LIMITS,
	acceptEnvelope,
	carryMemoryInto,
	type MemoryOwner,
	processMemorySize,
} from '../../nodes/WorkforceManagementTrigger/duplicates/acceptedEnvelopes';
import { envelopeHash } from '../../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import { decodeMemory } from '../../nodes/WorkforceManagementTrigger/duplicates/storedMemory';
import type { DuplicateMemoryStaticData } from '../../nodes/WorkforceManagementTrigger/staticData';

const NOW = 1_767_225_600;

function registration(nodeId: string, testListener = false): MemoryOwner {
	return { workflowId: 'wf-unit', nodeId, testListener };
}

/** Accepts and settles at once, as a request n8n answered; true when the id was new. */
function deliver(
	staticData: DuplicateMemoryStaticData,
	owner: MemoryOwner,
	id: string,
	now = NOW,
): boolean {
	const acceptance = acceptEnvelope(staticData, owner, id, now);
	acceptance.settle(true);
	return !acceptance.duplicate;
}

/** The API's retry of `id`, reaching a request that loaded `saved` as n8n stored it; true if taken for a duplicate. */
function retryLoading(
	saved: DuplicateMemoryStaticData,
	owner: MemoryOwner,
	id: string,
	now: number,
): boolean {
	const retry = acceptEnvelope(JSON.parse(JSON.stringify(saved)), owner, id, now);
	retry.settle(true);
	return retry.duplicate;
}

type AcceptedEnvelopesModule =
	typeof import('../../nodes/WorkforceManagementTrigger/duplicates/acceptedEnvelopes');

/** The module as a newly started n8n process holds it: nothing accepted in memory yet. */
function freshProcess(): AcceptedEnvelopesModule {
	let loaded: AcceptedEnvelopesModule | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		loaded = require('../../nodes/WorkforceManagementTrigger/duplicates/acceptedEnvelopes');
	});
	return loaded!;
}

/**
 * A workflow's row in n8n's database, one request at a time: each loads static data from it and,
 * its run started, saves it back whole. `deliver` is true when the delivery ran.
 */
function workflowRow(owner: MemoryOwner) {
	let saved = '{}';
	return {
		deliver(process: AcceptedEnvelopesModule, id: string, clockSeconds: number): boolean {
			const staticData = JSON.parse(saved) as DuplicateMemoryStaticData;
			const acceptance = process.acceptEnvelope(staticData, owner, id, Math.floor(clockSeconds));
			acceptance.settle(true);
			saved = JSON.stringify(staticData);
			return !acceptance.duplicate;
		},
	};
}

function holds(staticData: DuplicateMemoryStaticData, ids: string[]): boolean[] {
	const memory = decodeMemory(staticData.seenEnvelopes);
	return ids.map((id) => memory.has(envelopeHash(id)));
}

describe('acceptEnvelope', () => {
	it('catches a copy even when the static data it sees was loaded before the first was saved', () => {
		const owner = registration('node-copy');
		const first = acceptEnvelope({}, owner, 'evt_same', NOW);
		const second = acceptEnvelope({}, owner, 'evt_same', NOW);
		expect([first.duplicate, second.duplicate]).toEqual([false, true]);
	});

	it('writes every id of a burst into the static data of every request in flight', () => {
		const owner = registration('node-burst');
		const loaded = Array.from({ length: 16 }, (): DuplicateMemoryStaticData => ({}));
		const ids = loaded.map((_, index) => `evt_burst_${index}`);
		const acceptances = loaded.map((staticData, index) =>
			acceptEnvelope(staticData, owner, ids[index], NOW),
		);
		// whichever n8n saves last, it holds all 16
		for (const staticData of loaded) expect(holds(staticData, ids)).toEqual(ids.map(() => true));
		for (const acceptance of acceptances) acceptance.settle(true);
	});

	it('stops writing into a request once it is over (n8n has saved it)', () => {
		const owner = registration('node-over');
		const saved: DuplicateMemoryStaticData = {};
		deliver(saved, owner, 'evt_before');
		deliver({}, owner, 'evt_after');
		expect(holds(saved, ['evt_before', 'evt_after'])).toEqual([true, false]);
	});

	it('writes the union back, so a stale save is repaired by the next delivery', () => {
		const owner = registration('node-union');
		const a: DuplicateMemoryStaticData = {};
		deliver(a, owner, 'evt_a');
		deliver({}, owner, 'evt_b');
		const stale: DuplicateMemoryStaticData = { ...a }; // a save that lacks evt_b
		deliver(stale, owner, 'evt_c');
		expect(holds(stale, ['evt_a', 'evt_b', 'evt_c'])).toEqual([true, true, true]);
	});

	it('gives up an id whose execution did not start: its retry runs, and no request in flight keeps it', () => {
		const owner = registration('node-failed-start');
		const inFlight: DuplicateMemoryStaticData = {};
		const other = acceptEnvelope(inFlight, owner, 'evt_other', NOW);
		const failed = acceptEnvelope({}, owner, 'evt_failed', NOW);
		expect(holds(inFlight, ['evt_failed'])).toEqual([true]);

		failed.settle(false);
		expect(holds(inFlight, ['evt_other', 'evt_failed'])).toEqual([true, false]);
		other.settle(true);
		expect(deliver({}, owner, 'evt_failed', NOW + 60)).toBe(true);
		expect(deliver({}, owner, 'evt_failed', NOW + 120)).toBe(false);
	});

	it('does not count a copy of a given-up id that another request saved meanwhile', () => {
		const owner = registration('node-saved-meanwhile');
		const savedMeanwhile: DuplicateMemoryStaticData = {};
		const failed = acceptEnvelope({}, owner, 'evt_lost_start', NOW);
		deliver(savedMeanwhile, owner, 'evt_saved'); // saved while evt_lost_start was in flight
		expect(holds(savedMeanwhile, ['evt_lost_start'])).toEqual([true]);
		failed.settle(false);

		expect(retryLoading(savedMeanwhile, owner, 'evt_lost_start', NOW + 60)).toBe(false);
	});

	it('still counts the ids a stored copy holds after another id was given up', () => {
		const owner = registration('node-given-up-other');
		acceptEnvelope({}, owner, 'evt_did_not_start', NOW).settle(false);
		const savedElsewhere: DuplicateMemoryStaticData = {};
		deliver(savedElsewhere, registration('node-another-process'), 'evt_ran_elsewhere');
		const loaded = JSON.parse(JSON.stringify(savedElsewhere)) as DuplicateMemoryStaticData;
		expect(acceptEnvelope(loaded, owner, 'evt_ran_elsewhere', NOW + 60).duplicate).toBe(true);
	});

	it('remembers a given-up id across later deliveries, so a stale copy of it still does not count', () => {
		const owner = registration('node-given-up-later');
		const savedMeanwhile: DuplicateMemoryStaticData = {};
		const failed = acceptEnvelope({}, owner, 'evt_lost_start', NOW);
		deliver(savedMeanwhile, owner, 'evt_saved');
		failed.settle(false);
		deliver({}, owner, 'evt_next', NOW + 30);

		expect(retryLoading(savedMeanwhile, owner, 'evt_lost_start', NOW + 60)).toBe(false);
	});

	it('keeps the id in the request that gave it up: n8n saves that one only if the run started', () => {
		const owner = registration('node-own');
		const own: DuplicateMemoryStaticData = {};
		acceptEnvelope(own, owner, 'evt_own', NOW).settle(false);
		expect(holds(own, ['evt_own'])).toEqual([true]);
	});

	it('a duplicate settled as not started forgets nothing', () => {
		const owner = registration('node-dup-settle');
		deliver({}, owner, 'evt_ran');
		acceptEnvelope({}, owner, 'evt_ran', NOW).settle(false);
		expect(deliver({}, owner, 'evt_ran')).toBe(false);
	});

	it('carries the memory into a request that changed static data without accepting (a secret repair)', () => {
		const owner = registration('node-repair');
		const loadedLongBefore: DuplicateMemoryStaticData = {};
		const release = carryMemoryInto(loadedLongBefore, owner, NOW);
		deliver({}, owner, 'evt_accepted_meanwhile');
		// n8n saves the repairing request last: it must not wipe what was accepted meanwhile
		expect(holds(loadedLongBefore, ['evt_accepted_meanwhile'])).toEqual([true]);
		release();
		deliver({}, owner, 'evt_after_release');
		expect(holds(loadedLongBefore, ['evt_after_release'])).toEqual([false]);
	});

	it('keeps what a repairing request loaded from static data', () => {
		const owner = registration('node-repair-loaded');
		const stored: DuplicateMemoryStaticData = {};
		deliver(stored, registration('node-elsewhere'), 'evt_saved_by_another_process');
		const loaded = JSON.parse(JSON.stringify(stored)) as DuplicateMemoryStaticData;
		carryMemoryInto(loaded, owner, NOW)();
		expect(deliver({}, owner, 'evt_saved_by_another_process')).toBe(false);
	});

	it('migrates the first format once and removes it', () => {
		const staticData: Record<string, unknown> = { recentEnvelopes: { evt_old_format: NOW - 60 } };
		expect(deliver(staticData, registration('node-migrate'), 'evt_old_format')).toBe(false);
		expect(staticData.recentEnvelopes).toBeUndefined();
		expect(holds(staticData, ['evt_old_format'])).toEqual([true]);
	});

	it('keeps workflows and nodes apart', () => {
		const n = { nodeId: 'n', testListener: false };
		expect(deliver({}, { workflowId: 'wf-1', ...n }, 'evt_x')).toBe(true);
		expect(deliver({}, { workflowId: 'wf-2', ...n }, 'evt_x')).toBe(true);
	});

	it('keeps apart owners whose workflow and node ids only differ in where one ends', () => {
		const owner = (workflowId: string, nodeId: string) => ({
			workflowId,
			nodeId,
			testListener: false,
		});
		expect(deliver({}, owner('wf-split-1', '2n'), 'evt_split')).toBe(true);
		expect(deliver({}, owner('wf-split-12', 'n'), 'evt_split')).toBe(true);
	});

	it('keeps a test listener apart from production, which has the same workflow and node id', () => {
		const production = registration('node-shared');
		expect(deliver({}, registration('node-shared', true), 'evt_both')).toBe(true);
		expect(deliver({}, production, 'evt_both')).toBe(true);
		expect(deliver({}, production, 'evt_both')).toBe(false);
	});

	it('leaves static data untouched when nothing changed (so n8n has nothing to save)', () => {
		const owner = registration('node-unchanged');
		const staticData: DuplicateMemoryStaticData = {};
		deliver(staticData, owner, 'evt_once');
		const written = staticData.seenEnvelopes;
		expect(deliver(staticData, owner, 'evt_once', NOW + 60)).toBe(false);
		expect(staticData.seenEnvelopes).toBe(written);
	});

	it(`holds at most ${ACCEPTED_ENVELOPES_LIMITS.maxRegistrations} registrations, dropping the least recently used`, () => {
		const first = registration('node-lru-0');
		deliver({}, first, 'evt_lru');
		for (let i = 1; i <= ACCEPTED_ENVELOPES_LIMITS.maxRegistrations; i++) {
			deliver({}, registration(`node-lru-${i}`), 'evt_lru');
		}
		expect(processMemorySize()).toBe(ACCEPTED_ENVELOPES_LIMITS.maxRegistrations);
		// the first one's memory is gone from the process; static data would still hold it
		expect(deliver({}, first, 'evt_lru')).toBe(true);
	});

	it('keeps a registration idle for exactly an hour', () => {
		const owner = registration('node-hour');
		deliver({}, owner, 'evt_hour');
		const later = NOW + ACCEPTED_ENVELOPES_LIMITS.idleSeconds;
		deliver({}, registration('node-other'), 'evt_other', later);
		expect(deliver({}, owner, 'evt_hour', later)).toBe(false);
	});

	it('drops a registration idle for longer than an hour', () => {
		// later than every registration before it: the process clock only moves forward
		const start = NOW + 10 * ACCEPTED_ENVELOPES_LIMITS.idleSeconds;
		const idle = registration('node-idle');
		deliver({}, idle, 'evt_idle', start);
		const later = start + ACCEPTED_ENVELOPES_LIMITS.idleSeconds + 1;
		deliver({}, registration('node-busy'), 'evt_busy', later);
		expect(deliver({}, idle, 'evt_idle', later + 1)).toBe(true);
	});
});

describe('clocks that step or differ around a full hour', () => {
	const FULL_HOUR = NOW + 10 * 3600;

	it('a clock stepped back 2 s just after the full hour, then a restart: the retries of all 4 events are duplicates', () => {
		const row = workflowRow(registration('node-ntp-step'));
		const process = freshProcess();
		const events: Array<[string, number]> = [
			['evt_before', FULL_HOUR - 1],
			['evt_after', FULL_HOUR + 0.5],
			['evt_stepped_back', FULL_HOUR - 1.5], // NTP steps the clock back 2 s
			['evt_after_again', FULL_HOUR + 0.5],
		];
		expect(events.map(([id, at]) => row.deliver(process, id, at))).toEqual([
			true,
			true,
			true,
			true,
		]);

		const restarted = freshProcess();
		const retriesRun = events.map(([id]) => row.deliver(restarted, id, FULL_HOUR + 60));
		expect(retriesRun).toEqual([false, false, false, false]);
	});

	it('two webhook processes 1 s ahead and 1 s behind, one event each at the full hour, both restarted: none of 12 runs again', () => {
		const row = workflowRow(registration('node-two-clocks'));
		const [ahead, behind] = [freshProcess(), freshProcess()];
		const clockOf = (process: AcceptedEnvelopesModule, at: number) =>
			at + (process === ahead ? 1 : -1);
		// ten events in the hour before the full hour, taken in turn, then one on each around it
		const events = Array.from({ length: 10 }, (_, index): [string, number] => [
			`evt_hour_before_${index}`,
			FULL_HOUR - 3000 + index * 300,
		]);
		events.push(['evt_on_ahead', FULL_HOUR - 0.5], ['evt_on_behind', FULL_HOUR - 0.2]);
		const ran = events.map(([id, at], index) => {
			const process = index % 2 === 0 ? ahead : behind;
			return row.deliver(process, id, clockOf(process, at));
		});
		expect(ran).toEqual(events.map(() => true));

		const restarted = [freshProcess(), freshProcess()];
		const redeliveriesRun = events.map(([id], index) =>
			row.deliver(restarted[index % 2], id, FULL_HOUR + 60),
		);
		expect(redeliveriesRun).toEqual(events.map(() => false));
	});
});
