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
	acceptEnvelopeOnce,
	type DuplicateMemoryStaticData,
	type MemoryOwner,
	PROCESS_MEMORY_LIMITS,
	processMemorySize,
	settleEnvelope,
} from '../../nodes/WorkforceManagementTrigger/duplicates';

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

	it('takes under 4 KB of JSON at a full memory', () => {
		const json = JSON.stringify({ seenEnvelopes: encodeMemory(fullMemory()) });
		expect(json.length).toBeLessThan(4096);
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

function registration(nodeId: string, testListener = false): MemoryOwner {
	return { workflowId: 'wf-unit', nodeId, testListener };
}

describe('acceptEnvelopeOnce', () => {
	const owner = registration('node-unit');

	it('catches a copy even when the static data it sees was loaded before the first was saved', () => {
		const loadedByFirst = {};
		const loadedBySecond = {};
		expect(acceptEnvelopeOnce(loadedByFirst, owner, 'evt_same', NOW)).toBe(true);
		expect(acceptEnvelopeOnce(loadedBySecond, owner, 'evt_same', NOW)).toBe(false);
	});

	it('writes the union back, so a stale save is repaired by the next delivery', () => {
		const other = registration('node-union');
		const a: DuplicateMemoryStaticData = {};
		const b: DuplicateMemoryStaticData = {};
		acceptEnvelopeOnce(a, other, 'evt_a', NOW);
		acceptEnvelopeOnce(b, other, 'evt_b', NOW);
		settleEnvelope(other, 'evt_a', true);
		settleEnvelope(other, 'evt_b', true);
		const saved = { ...a }; // the last save wins: A's copy, without evt_b
		acceptEnvelopeOnce(saved, other, 'evt_c', NOW);
		const ids = decodeMemory(saved.seenEnvelopes);
		expect(['evt_a', 'evt_b', 'evt_c'].every((id) => ids.has(envelopeHash(id)))).toBe(true);
	});

	it('migrates the first format once and removes it', () => {
		const staticData: Record<string, unknown> = { recentEnvelopes: { evt_old_format: NOW - 60 } };
		const fresh = registration('node-migrate');
		expect(acceptEnvelopeOnce(staticData, fresh, 'evt_old_format', NOW)).toBe(false);
		expect(staticData.recentEnvelopes).toBeUndefined();
		expect(decodeMemory(staticData.seenEnvelopes).has(envelopeHash('evt_old_format'))).toBe(true);
	});

	it('keeps workflows and nodes apart', () => {
		const n = { nodeId: 'n', testListener: false };
		expect(acceptEnvelopeOnce({}, { workflowId: 'wf-1', ...n }, 'evt_x', NOW)).toBe(true);
		expect(acceptEnvelopeOnce({}, { workflowId: 'wf-2', ...n }, 'evt_x', NOW)).toBe(true);
	});

	it('keeps a test listener apart from production, which has the same workflow and node id', () => {
		const production = registration('node-shared');
		const testListener = registration('node-shared', true);
		expect(acceptEnvelopeOnce({}, testListener, 'evt_both', NOW)).toBe(true);
		expect(acceptEnvelopeOnce({}, production, 'evt_both', NOW)).toBe(true);
		expect(acceptEnvelopeOnce({}, production, 'evt_both', NOW)).toBe(false);
	});

	it('forgets an id whose execution n8n could not start, so the retry runs', () => {
		const owner = registration('node-failed-start');
		const notSaved: DuplicateMemoryStaticData = {};
		expect(acceptEnvelopeOnce(notSaved, owner, 'evt_retry', NOW)).toBe(true);
		settleEnvelope(owner, 'evt_retry', false);
		expect(acceptEnvelopeOnce({}, owner, 'evt_retry', NOW + 60)).toBe(true);
		settleEnvelope(owner, 'evt_retry', true);
		expect(acceptEnvelopeOnce({}, owner, 'evt_retry', NOW + 120)).toBe(false);
	});

	it("does not write another request's pending id to static data, but blocks its copies", () => {
		const owner = registration('node-pending');
		expect(acceptEnvelopeOnce({}, owner, 'evt_first', NOW)).toBe(true);
		const other: DuplicateMemoryStaticData = {};
		expect(acceptEnvelopeOnce(other, owner, 'evt_second', NOW)).toBe(true);
		const written = decodeMemory(other.seenEnvelopes);
		expect(written.has(envelopeHash('evt_second'))).toBe(true);
		expect(written.has(envelopeHash('evt_first'))).toBe(false);
		expect(acceptEnvelopeOnce({}, owner, 'evt_first', NOW)).toBe(false);
		settleEnvelope(owner, 'evt_first', true);
		const later: DuplicateMemoryStaticData = {};
		acceptEnvelopeOnce(later, owner, 'evt_third', NOW);
		expect(decodeMemory(later.seenEnvelopes).has(envelopeHash('evt_first'))).toBe(true);
	});

	it(`holds at most ${PROCESS_MEMORY_LIMITS.maxRegistrations} registrations, dropping the least recently used`, () => {
		const first = registration('node-lru-0');
		acceptEnvelopeOnce({}, first, 'evt_lru', NOW);
		for (let i = 1; i <= PROCESS_MEMORY_LIMITS.maxRegistrations; i++) {
			acceptEnvelopeOnce({}, registration(`node-lru-${i}`), 'evt_lru', NOW);
		}
		expect(processMemorySize()).toBe(PROCESS_MEMORY_LIMITS.maxRegistrations);
		// the first one's memory is gone from the process; static data would still hold it
		expect(acceptEnvelopeOnce({}, first, 'evt_lru', NOW)).toBe(true);
	});

	it('leaves static data untouched when nothing changed (so n8n has nothing to save)', () => {
		const owner = registration('node-unchanged');
		const staticData: DuplicateMemoryStaticData = {};
		acceptEnvelopeOnce(staticData, owner, 'evt_once', NOW);
		settleEnvelope(owner, 'evt_once', true);
		const written = staticData.seenEnvelopes;
		expect(acceptEnvelopeOnce(staticData, owner, 'evt_once', NOW + 60)).toBe(false);
		expect(staticData.seenEnvelopes).toBe(written);
	});

	it('settling an id of a registration this process no longer holds does nothing', () => {
		expect(() => settleEnvelope(registration('node-never-seen'), 'evt_none', false)).not.toThrow();
	});

	it('keeps a registration idle for exactly an hour', () => {
		const owner = registration('node-hour');
		acceptEnvelopeOnce({}, owner, 'evt_hour', NOW);
		settleEnvelope(owner, 'evt_hour', true);
		const later = NOW + PROCESS_MEMORY_LIMITS.idleSeconds;
		acceptEnvelopeOnce({}, registration('node-other'), 'evt_other', later);
		expect(acceptEnvelopeOnce({}, owner, 'evt_hour', later)).toBe(false);
	});

	it('drops a registration idle for longer than an hour', () => {
		// later than every registration before it: the process clock only moves forward
		const start = NOW + 10 * PROCESS_MEMORY_LIMITS.idleSeconds;
		const idle = registration('node-idle');
		acceptEnvelopeOnce({}, idle, 'evt_idle', start);
		const later = start + PROCESS_MEMORY_LIMITS.idleSeconds + 1;
		acceptEnvelopeOnce({}, registration('node-busy'), 'evt_busy', later);
		expect(acceptEnvelopeOnce({}, idle, 'evt_idle', later + 1)).toBe(true);
	});
});
