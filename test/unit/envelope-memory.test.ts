import { createHash } from 'node:crypto';

import {
	ENVELOPE_MEMORY_LIMITS,
	envelopeHash,
	type EnvelopeMemory,
	hourOf,
	mergeMemories,
	migrateLegacy,
	recordEnvelope,
	recordInPlace,
	forgetAcceptedEnvelopes,
} from '../../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import {
	decodeMemory,
	encodeMemory,
	newInStored,
	type HourEncodings,
	sameStoredMemory,
} from '../../nodes/WorkforceManagementTrigger/duplicates/storedMemory';
import type { StoredEnvelopeMemory } from '../../nodes/WorkforceManagementTrigger/staticData';

const NOW = 1_767_225_600;
const HOUR = 3600;

function remember(ids: string[], nowSeconds = NOW): EnvelopeMemory {
	let memory: EnvelopeMemory = new Map();
	for (const id of ids) memory = recordEnvelope([memory], id, nowSeconds).memory;
	return memory;
}

/** A memory holding `count` ids spread over the window, as a steady stream fills it. */
function fullMemory(count = ENVELOPE_MEMORY_LIMITS.maxEntries): EnvelopeMemory {
	let memory: EnvelopeMemory = new Map();
	const spacing = ((ENVELOPE_MEMORY_LIMITS.windowHours - 1) * HOUR) / count;
	for (let index = 0; index < count; index++) {
		const at = NOW - (ENVELOPE_MEMORY_LIMITS.windowHours - 1) * HOUR + Math.floor(index * spacing);
		memory = recordEnvelope([memory], `evt_${index.toString(16).padStart(24, '0')}`, at).memory;
	}
	return memory;
}

function sortedEntries(memory: EnvelopeMemory): Array<[number, number]> {
	return [...memory].sort(([left], [right]) => left - right);
}

function hoursOf(stored: StoredEnvelopeMemory): string[] {
	return Object.keys(stored).filter((key) => key !== 'format');
}

function hashesOf(ids: string[]): number[] {
	return ids.map(envelopeHash);
}

/**
 * Which of `candidates` a stored memory holds, in the order given; `others` counts what else it
 * holds (ids the test did not record would be a bug too).
 */
function heldIds(stored: StoredEnvelopeMemory, candidates: string[]) {
	const memory = decodeMemory(stored);
	const held = candidates.filter((id) => memory.has(envelopeHash(id)));
	return { held, others: memory.size - held.length };
}

function isInOrder(memory: EnvelopeMemory): boolean {
	const hours = [...memory.values()];
	return hours.every((hour, index) => index === 0 || hours[index - 1] <= hour);
}

/** A reproducible stream of numbers in [0, 1) (mulberry32), so a failing trial can be replayed. */
function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
	};
}

function shuffled<T>(items: T[], random: () => number): T[] {
	const copy = [...items];
	for (let index = copy.length - 1; index > 0; index--) {
		const other = Math.floor(random() * (index + 1));
		[copy[index], copy[other]] = [copy[other], copy[index]];
	}
	return copy;
}

describe('recordEnvelope', () => {
	it('reports a first delivery as new and a repeat as duplicate', () => {
		const first = recordEnvelope([], 'evt_a1', NOW);
		expect(first.duplicate).toBe(false);
		const retry = recordEnvelope([first.memory], 'evt_a1', NOW + HOUR);
		expect(retry.duplicate).toBe(true);
		expect([...retry.memory.values()]).toEqual([hourOf(NOW)]);
	});

	it('does not mutate the memories it is given', () => {
		const memory = remember(['evt_a1']);
		recordEnvelope([memory], 'evt_b2', NOW);
		expect(memory.size).toBe(1);
	});

	it('finds an id in any of the memories it merges', () => {
		const stored = remember(['evt_a1']);
		const inProcess = remember(['evt_b2']);
		expect(recordEnvelope([stored, inProcess], 'evt_b2', NOW).duplicate).toBe(true);
		expect(recordEnvelope([stored, inProcess], 'evt_a1', NOW).duplicate).toBe(true);
		expect(recordEnvelope([stored, inProcess], 'evt_c3', NOW).memory.size).toBe(3);
	});

	it('remembers an id for at least 29 hours and forgets it after 30', () => {
		const memory = remember(['evt_edge'], NOW + HOUR - 1);
		expect(recordEnvelope([memory], 'evt_edge', NOW + 29 * HOUR + HOUR - 1).duplicate).toBe(true);
		expect(recordEnvelope([memory], 'evt_edge', NOW + 30 * HOUR).duplicate).toBe(false);
	});

	it('keeps at most maxEntries ids, dropping the oldest', () => {
		const limits = { maxEntries: 3, windowHours: 30 };
		let memory: EnvelopeMemory = new Map();
		['evt_1', 'evt_2', 'evt_3', 'evt_4'].forEach((id, index) => {
			memory = recordEnvelope([memory], id, NOW + index * HOUR, limits).memory;
		});
		expect([...memory.keys()]).toEqual(['evt_2', 'evt_3', 'evt_4'].map(envelopeHash));
		expect(recordEnvelope([memory], 'evt_1', NOW + 4 * HOUR, limits).duplicate).toBe(false);
		expect(recordEnvelope([memory], 'evt_4', NOW + 4 * HOUR, limits).duplicate).toBe(true);
	});
});

describe('recordInPlace', () => {
	it('decides as recordEnvelope does, on the memory itself', () => {
		const limits = { maxEntries: 3, windowHours: 2 };
		const inPlace: EnvelopeMemory = new Map();
		let pure: EnvelopeMemory = new Map();
		const steps: Array<[string, number]> = [
			['evt_1', NOW],
			['evt_2', NOW],
			['evt_1', NOW + HOUR],
			['evt_3', NOW + HOUR],
			['evt_4', NOW + HOUR],
			['evt_2', NOW + HOUR],
			['evt_5', NOW + 3 * HOUR],
			['evt_4', NOW + 3 * HOUR],
		];
		for (const [id, at] of steps) {
			const recorded = recordEnvelope([pure], id, at, limits);
			expect(recordInPlace(inPlace, id, at, limits)).toBe(recorded.duplicate);
			pure = recorded.memory;
			expect([...inPlace]).toEqual([...pure]);
		}
	});
});

describe('recordInPlace after a clock stepped back', () => {
	// a full hour, and the hour before it
	const FULL_HOUR = NOW + 10 * HOUR;

	it('decides as recordEnvelope does, and stays in order, when the clock steps back across the hour', () => {
		const inPlace: EnvelopeMemory = new Map();
		let pure: EnvelopeMemory = new Map();
		const steps: Array<[string, number]> = [
			['evt_1', FULL_HOUR - 1],
			['evt_2', FULL_HOUR + 1],
			['evt_3', FULL_HOUR - 1], // NTP stepped the clock back 2 s
			['evt_2', FULL_HOUR - 1],
			['evt_4', FULL_HOUR + 1],
			['evt_5', FULL_HOUR - 300], // five minutes back
			['evt_4', FULL_HOUR + 2],
		];
		for (const [id, at] of steps) {
			const recorded = recordEnvelope([pure], id, at);
			expect(recordInPlace(inPlace, id, at)).toBe(recorded.duplicate);
			pure = recorded.memory;
			expect([...inPlace]).toEqual([...pure]);
			expect(isInOrder(inPlace)).toBe(true);
		}
		const ids = ['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5'];
		expect(heldIds(encodeMemory(inPlace), ids)).toEqual({ held: ids, others: 0 });
	});

	it('takes an id from an hour the clock has not reached again as the current hour', () => {
		const memory: EnvelopeMemory = new Map();
		recordInPlace(memory, 'evt_ahead', FULL_HOUR + 1);
		recordInPlace(memory, 'evt_after_step', FULL_HOUR - 1);
		expect([...memory.values()]).toEqual([hourOf(FULL_HOUR - 1), hourOf(FULL_HOUR - 1)]);
	});

	it('keeps no id past its window once the clock stepped back across the hour', () => {
		const memory: EnvelopeMemory = new Map();
		recordInPlace(memory, 'evt_ahead', FULL_HOUR + 1);
		recordInPlace(memory, 'evt_after_step', FULL_HOUR - 1);
		const { windowHours } = ENVELOPE_MEMORY_LIMITS;
		// the hour before the full hour is the oldest kept, then one hour too old
		recordInPlace(memory, 'evt_edge', FULL_HOUR - 1 + (windowHours - 1) * HOUR);
		expect(memory.size).toBe(3);
		recordInPlace(memory, 'evt_later', FULL_HOUR - 1 + windowHours * HOUR);
		expect([...memory.keys()]).toEqual(hashesOf(['evt_edge', 'evt_later']));
	});
});

describe('the window and the limit', () => {
	const { windowHours } = ENVELOPE_MEMORY_LIMITS;
	const oldestKept = NOW - (windowHours - 1) * HOUR;

	it('keeps an id of exactly the oldest hour in the window and drops one an hour older', () => {
		const memory = new Map([
			[envelopeHash('evt_too_old'), hourOf(oldestKept - HOUR)],
			[envelopeHash('evt_oldest_kept'), hourOf(oldestKept)],
		]);
		expect([...mergeMemories([memory], NOW).keys()]).toEqual(hashesOf(['evt_oldest_kept']));
		recordInPlace(memory, 'evt_now', NOW);
		expect([...memory.keys()]).toEqual(hashesOf(['evt_oldest_kept', 'evt_now']));
	});

	it('evicts the oldest hour first, wherever its ids came from', () => {
		const limits = { maxEntries: 2, windowHours };
		const ahead = new Map([[envelopeHash('evt_newest'), hourOf(NOW) + 1]]);
		const older = new Map([
			[envelopeHash('evt_oldest'), hourOf(NOW) - 2],
			[envelopeHash('evt_middle'), hourOf(NOW) - 1],
		]);
		expect([...mergeMemories([ahead, older], NOW, limits)]).toEqual([
			[envelopeHash('evt_middle'), hourOf(NOW) - 1],
			[envelopeHash('evt_newest'), hourOf(NOW)],
		]);
		const inPlace = mergeMemories([older], NOW, limits);
		recordInPlace(inPlace, 'evt_new', NOW, limits);
		expect([...inPlace.keys()]).toEqual(hashesOf(['evt_middle', 'evt_new']));
	});
});

describe('the memory is a set of ids, whatever order they came in and whatever the clocks said', () => {
	const TRIALS = 100;
	const JITTER_SECONDS = 10 * 60;
	const END = NOW + 40 * HOUR;

	/** A delivery as the reader sees it: the id, and the reader's clock when it arrived. */
	interface Delivery {
		id: string;
		clock: number;
	}

	/**
	 * The same ids each call, in a new random order: `kept` arrive within the last 20 hours,
	 * `expired` 36 to 40 hours before the end, each read on a clock up to 10 minutes off the true
	 * time, either way (so the clock often steps back across a full hour between two deliveries).
	 */
	function jitteredDeliveries(random: () => number, trial: number) {
		const band = (name: string, count: number, from: number, spanHours: number) => {
			const ids = Array.from({ length: count }, (_, index) => `evt_${trial}_${name}_${index}`);
			const arrivals = ids.map(() => from + Math.floor(random() * spanHours * HOUR));
			arrivals.sort((left, right) => left - right);
			return {
				ids,
				arrivals: shuffled(ids, random).map((id, index) => [id, arrivals[index]] as const),
			};
		};
		const expired = band('expired', 20, END - 40 * HOUR, 4);
		const kept = band('kept', 40, END - 20 * HOUR, 20);
		const deliveries: Delivery[] = [...expired.arrivals, ...kept.arrivals].map(([id, at]) => ({
			id,
			clock: at + Math.round((random() * 2 - 1) * JITTER_SECONDS),
		}));
		return {
			deliveries,
			all: [...expired.ids, ...kept.ids, 'evt_last'],
			kept: [...kept.ids, 'evt_last'],
		};
	}

	it('in one process: the stored memory holds every id within the window and none older', () => {
		const random = seededRandom(43);
		for (let trial = 0; trial < TRIALS; trial++) {
			const { deliveries, all, kept } = jitteredDeliveries(random, trial);
			const memory: EnvelopeMemory = new Map();
			const cache: HourEncodings = new Map();
			for (const { id, clock } of [...deliveries, { id: 'evt_last', clock: END }]) {
				recordInPlace(memory, id, clock);
				encodeMemory(memory, cache);
			}
			const stored = JSON.parse(
				JSON.stringify(encodeMemory(memory, cache)),
			) as StoredEnvelopeMemory;
			expect(stored).toEqual(encodeMemory(memory));
			expect(heldIds(stored, all)).toEqual({ held: kept, others: 0 });
			expect(isInOrder(memory)).toBe(true);
		}
	});

	it('through static data: every id within the window and none older, whichever order they came in', () => {
		const random = seededRandom(4301);
		for (let trial = 0; trial < TRIALS; trial++) {
			for (const order of [1, 2]) {
				const { deliveries, all, kept } = jitteredDeliveries(random, trial);
				let stored: StoredEnvelopeMemory = {};
				for (const { id, clock } of [...deliveries, { id: 'evt_last', clock: END }]) {
					const { memory } = recordEnvelope([decodeMemory(stored)], id, clock);
					stored = JSON.parse(JSON.stringify(encodeMemory(memory))) as StoredEnvelopeMemory;
				}
				expect({ order, ...heldIds(stored, all) }).toEqual({ order, held: kept, others: 0 });
			}
		}
	});

	it('two processes whose clocks differ by 2 s, merging through one row around full hours, keep every id', () => {
		const random = seededRandom(4302);
		const skews = [+1, -1];
		for (let trial = 0; trial < TRIALS; trial++) {
			const processes = skews.map((): EnvelopeMemory => new Map());
			let row: StoredEnvelopeMemory = {};
			const ids: string[] = [];
			for (let fullHour = hourOf(NOW) + 1; fullHour <= hourOf(NOW) + 6; fullHour++) {
				// five events within 3 s of the full hour, each on a process picked at random
				const arrivals = Array.from({ length: 5 }, () => fullHour * HOUR - 3 + random() * 6);
				for (const at of arrivals.sort((left, right) => left - right)) {
					const process = Math.floor(random() * skews.length);
					const id = `evt_${trial}_${ids.length}`;
					const clock = Math.floor(at + skews[process]);
					const { memory } = recordEnvelope([decodeMemory(row), processes[process]], id, clock);
					processes[process] = memory;
					row = JSON.parse(JSON.stringify(encodeMemory(memory))) as StoredEnvelopeMemory;
					ids.push(id);
				}
			}
			expect(heldIds(row, ids)).toEqual({ held: ids, others: 0 });
		}
	});
});

describe('mergeMemories', () => {
	it('is the union, each id at the hour it was first accepted, oldest first', () => {
		const early = remember(['evt_a1', 'evt_b2'], NOW);
		const late = remember(['evt_b2', 'evt_c3'], NOW + 2 * HOUR);
		const merged = mergeMemories([late, early], NOW + 2 * HOUR);
		expect([...merged]).toEqual([
			[envelopeHash('evt_b2'), hourOf(NOW)],
			[envelopeHash('evt_a1'), hourOf(NOW)],
			[envelopeHash('evt_c3'), hourOf(NOW) + 2],
		]);
	});

	it('keeps the first hour whichever memory comes first', () => {
		const early = remember(['evt_same'], NOW);
		const late = remember(['evt_same'], NOW + 3 * HOUR);
		for (const order of [
			[early, late],
			[late, early],
		]) {
			expect([...mergeMemories(order, NOW + 3 * HOUR).values()]).toEqual([hourOf(NOW)]);
		}
	});

	it('stays bounded however many memories it merges', () => {
		const merged = mergeMemories([fullMemory(), remember(['evt_x', 'evt_y'])], NOW);
		expect(merged.size).toBe(ENVELOPE_MEMORY_LIMITS.maxEntries);
		expect(merged.has(envelopeHash('evt_y'))).toBe(true);
	});
});

describe('the stored form', () => {
	it('round-trips through JSON as static data is stored: the same ids at the same hours, oldest hour first', () => {
		const memory = fullMemory();
		const decoded = decodeMemory(JSON.parse(JSON.stringify(encodeMemory(memory))));
		expect(sortedEntries(decoded)).toEqual(sortedEntries(memory));
		const hours = [...decoded.values()];
		expect(hours).toEqual([...hours].sort((left, right) => left - right));
	});

	it('groups ids by hour and marks its format', () => {
		const stored = encodeMemory(remember(['evt_a1', 'evt_b2']));
		expect(hoursOf(stored)).toEqual([String(hourOf(NOW))]);
		expect(stored.format).toBe('rice37');
	});

	it('takes at most 16,000 bytes of JSON at a full memory (3,000 ids over 30 hours), 5.2 characters an id', () => {
		const json = JSON.stringify({ seenEnvelopes: encodeMemory(fullMemory()) });
		expect(json.length).toBeLessThanOrEqual(16_000);
		expect(json.length / ENVELOPE_MEMORY_LIMITS.maxEntries).toBeLessThan(5.2);
	});

	it('reads the format before (8-byte SHA-256 prefixes in base64 per hour) and knows its ids', () => {
		const prefix = (id: string) => createHash('sha256').update(id).digest().subarray(0, 8);
		const before = {
			[hourOf(NOW) - 1]: Buffer.concat([prefix('evt_a'), prefix('evt_b')]).toString('base64'),
			[hourOf(NOW)]: prefix('evt_c').toString('base64'),
		};
		expect(sortedEntries(decodeMemory(before))).toEqual(
			sortedEntries(
				new Map([
					[envelopeHash('evt_a'), hourOf(NOW) - 1],
					[envelopeHash('evt_b'), hourOf(NOW) - 1],
					[envelopeHash('evt_c'), hourOf(NOW)],
				]),
			),
		);
	});

	it('encodes the same with a cache of earlier encodings, whatever changed meanwhile', () => {
		const cache: HourEncodings = new Map();
		const memory = fullMemory();
		encodeMemory(memory, cache);
		const changes: Array<(at: number) => void> = [
			(at) => recordInPlace(memory, 'evt_new1', at),
			() => memory.delete([...memory.keys()][memory.size >> 1]),
			(at) => recordInPlace(memory, 'evt_new2', at + 2 * HOUR),
			() => memory.delete([...memory.keys()][memory.size - 1]),
			(at) => recordInPlace(memory, 'evt_new3', at + 40 * HOUR),
		];
		for (const change of changes) {
			change(NOW);
			expect(encodeMemory(memory, cache)).toEqual(encodeMemory(memory));
		}
		expect([...cache.keys()].map(String)).toEqual(hoursOf(encodeMemory(memory)));
	});

	it('keeps every id when the memory holds one hour twice (its clock stepped back across the hour)', () => {
		const [before, after] = [hourOf(NOW) - 1, hourOf(NOW)];
		const memory: EnvelopeMemory = new Map([
			[envelopeHash('evt_1'), before],
			[envelopeHash('evt_2'), after],
			[envelopeHash('evt_3'), before],
			[envelopeHash('evt_4'), after],
		]);
		const cache: HourEncodings = new Map();
		const stored = JSON.parse(JSON.stringify(encodeMemory(memory, cache))) as unknown;
		expect(hoursOf(stored as StoredEnvelopeMemory)).toEqual([String(before), String(after)]);
		expect(sortedEntries(decodeMemory(stored))).toEqual(sortedEntries(memory));
		memory.set(envelopeHash('evt_5'), before);
		expect(encodeMemory(memory, cache)).toEqual(encodeMemory(memory));
	});

	it('skips anything unreadable instead of throwing', () => {
		expect(decodeMemory('garbage').size).toBe(0);
		expect(decodeMemory(null).size).toBe(0);
		const mixed = decodeMemory({ x: 'AAAA', 1: 42, [hourOf(NOW)]: 'AAAAAAAAAAA=' });
		expect([...mixed.values()]).toEqual([hourOf(NOW)]);
	});

	it('reads the first format (id → seconds), keeping what falls in the window', () => {
		const migrated = migrateLegacy({
			evt_kept: NOW - 10,
			evt_too_old: NOW - 40 * HOUR,
			evt_broken: 'yesterday',
		});
		const merged = mergeMemories([migrated], NOW);
		expect([...merged.keys()]).toEqual([envelopeHash('evt_kept')]);
		expect(migrateLegacy(undefined).size).toBe(0);
	});
});

describe('newInStored: what a loaded memory adds to this process', () => {
	const NOTHING: EnvelopeMemory = new Map();

	/** A process's memory of `ids` recorded one after the other, and its encodings of it. */
	function processOf(ids: string[], nowSeconds = NOW) {
		const memory: EnvelopeMemory = new Map();
		for (const id of ids) recordInPlace(memory, id, nowSeconds);
		const encodings: HourEncodings = new Map();
		const stored = JSON.parse(
			JSON.stringify(encodeMemory(memory, encodings)),
		) as StoredEnvelopeMemory;
		return { memory, encodings, stored };
	}

	const ids = (count: number, prefix = 'evt') =>
		Array.from({ length: count }, (_, index) => `${prefix}_${index}`);

	it('adds nothing from what it wrote, nor from an earlier save of it (a burst: each request loaded the last save)', () => {
		const own = processOf(ids(300));
		const earlierSave = processOf(ids(250)).stored;
		for (const id of ids(300).slice(250)) recordInPlace(own.memory, id, NOW);
		encodeMemory(own.memory, own.encodings);
		const known = { memory: own.memory, encodings: own.encodings, ignored: NOTHING };
		expect(newInStored(own.stored, known, NOW).size).toBe(0);
		expect(newInStored(earlierSave, known, NOW).size).toBe(0);
	});

	it("adds exactly another process's ids, at their hour, whichever buckets they fall in", () => {
		const own = processOf(ids(300));
		const other = processOf([...ids(300), 'evt_other_1', 'evt_other_2'], NOW);
		const known = { memory: own.memory, encodings: own.encodings, ignored: NOTHING };
		expect(sortedEntries(newInStored(other.stored, known, NOW))).toEqual(
			sortedEntries(
				new Map([
					[envelopeHash('evt_other_1'), hourOf(NOW)],
					[envelopeHash('evt_other_2'), hourOf(NOW)],
				]),
			),
		);
	});

	it('adds an id it holds at a later hour than stored (first accepted earlier elsewhere), and never an ignored one', () => {
		const own = processOf(['evt_a', 'evt_b'], NOW);
		const other = processOf(['evt_a', 'evt_b'], NOW - 2 * HOUR);
		const ignoringB = {
			memory: own.memory,
			encodings: own.encodings,
			ignored: new Map([[envelopeHash('evt_b'), hourOf(NOW)]]),
		};
		expect([...newInStored(other.stored, ignoringB, NOW)]).toEqual([
			[envelopeHash('evt_a'), hourOf(NOW) - 2],
		]);
	});

	it('leaves out ids older than the window, and, at a full memory, ids no newer than its oldest', () => {
		const limits = { maxEntries: 4, windowHours: 30 };
		const stale = processOf(['evt_stale'], NOW - 31 * HOUR).stored;
		const empty = { memory: NOTHING, encodings: new Map(), ignored: NOTHING };
		expect(newInStored(stale, empty, NOW).size).toBe(0);

		const full: EnvelopeMemory = new Map();
		for (const id of ids(4, 'own')) recordInPlace(full, id, NOW - HOUR, limits);
		const older = processOf(['evt_older'], NOW - 3 * HOUR).stored;
		const newer = processOf(['evt_newer'], NOW).stored;
		const known = { memory: full, encodings: new Map(), ignored: NOTHING };
		expect(newInStored(older, known, NOW, limits).size).toBe(0);
		expect([...newInStored(newer, known, NOW, limits).keys()]).toEqual([envelopeHash('evt_newer')]);
		// what a merge of everything would keep, the same
		const merged = mergeMemories([decodeMemory(older), decodeMemory(newer), full], NOW, limits);
		const viaNew = mergeMemories(
			[newInStored(older, known, NOW, limits), newInStored(newer, known, NOW, limits), full],
			NOW,
			limits,
		);
		expect(sortedEntries(viaNew)).toEqual(sortedEntries(merged));
	});
});

describe('sameStoredMemory', () => {
	it('holds for the same hours and hashes only', () => {
		const encoded = encodeMemory(remember(['evt_same']));
		expect(sameStoredMemory(encoded, JSON.parse(JSON.stringify(encoded)))).toBe(true);
		expect(sameStoredMemory(encoded, encodeMemory(remember(['evt_other'])))).toBe(false);
		expect(sameStoredMemory(encoded, {})).toBe(false);
		expect(sameStoredMemory(encoded, undefined)).toBe(false);
	});

	it('does not hold when one hour of several differs', () => {
		const twoHours = recordEnvelope(
			[remember(['evt_earlier'], NOW - HOUR)],
			'evt_later',
			NOW,
		).memory;
		const encoded = encodeMemory(twoHours);
		const [firstHour] = hoursOf(encoded);
		const oneHourChanged = { ...encoded, [firstHour]: `${encoded[firstHour]}x` };
		expect(hoursOf(encoded)).toHaveLength(2);
		expect(sameStoredMemory(encoded, oneHourChanged)).toBe(false);
	});
});

describe('forgetAcceptedEnvelopes', () => {
	it('removes the memory in both formats and leaves the rest of the static data', () => {
		const staticData: Record<string, unknown> = {
			seenEnvelopes: encodeMemory(remember(['evt_a'])),
			recentEnvelopes: { evt_old: NOW },
			webhookId: 'we_1',
		};
		forgetAcceptedEnvelopes(staticData);
		expect(staticData).toEqual({ webhookId: 'we_1' });
	});
});
