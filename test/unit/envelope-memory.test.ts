import {
	decodeMemory,
	encodeMemory,
	ENVELOPE_MEMORY_LIMITS,
	envelopeHash,
	type EnvelopeMemory,
	hourOf,
	mergeMemories,
	migrateLegacy,
	recordEnvelope,
	recordInPlace,
	type HourEncodings,
	forgetAcceptedEnvelopes,
	sameStoredMemory,
} from '../../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';

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
	it('round-trips through JSON as static data is stored', () => {
		const memory = fullMemory();
		const stored = JSON.parse(JSON.stringify(encodeMemory(memory))) as unknown;
		expect([...decodeMemory(stored)]).toEqual([...memory]);
	});

	it('groups ids by hour, base64 of 8-byte hashes', () => {
		const stored = encodeMemory(remember(['evt_a1', 'evt_b2']));
		expect(Object.keys(stored)).toEqual([String(hourOf(NOW))]);
		expect(Buffer.from(stored[String(hourOf(NOW))], 'base64')).toHaveLength(16);
	});

	it('takes under 11 characters an id, plus 16 an hour, at a full memory', () => {
		const json = JSON.stringify({ seenEnvelopes: encodeMemory(fullMemory()) });
		const { maxEntries, windowHours } = ENVELOPE_MEMORY_LIMITS;
		expect(json.length).toBeLessThan(maxEntries * 11 + windowHours * 16);
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
		expect([...cache.keys()].map(String)).toEqual(Object.keys(encodeMemory(memory)));
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
		const [firstHour] = Object.keys(encoded);
		const oneHourChanged = { ...encoded, [firstHour]: `${encoded[firstHour]}x` };
		expect(Object.keys(encoded)).toHaveLength(2);
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
