/**
 * The trigger's duplicate memory: which envelope ids it accepted recently, in a form small enough
 * to ride along in every execution record (n8n copies the workflow's static data into each one).
 *
 * Stored shape (static data `seenEnvelopes`): hour since the epoch → base64 of the 8-byte SHA-256
 * prefixes of the ids first accepted in that hour, oldest first, e.g. `{"493852":"q1Z…"}`.
 * About 10.7 characters per id plus ~13 per hour: a full memory (3,000 ids) takes about 32 KB.
 *
 * Why every id for 30 hours: the API retries a failed delivery for about 24 hours (up to 8
 * attempts) with the same envelope id, and a redelivery someone asks for repeats it too, however
 * the first delivery ended; nothing the trigger sees tells which ids can still come back, so it
 * keeps them all for at least 29 hours, up to `EVENTS_PER_HOUR_COVERED` an hour. Beyond that rate
 * the oldest are forgotten first (retries of recent ids are the likely ones). The cost is weight:
 * n8n copies static data into every execution record (docs/webhooks.md has the figures).
 *
 * Why a 64-bit prefix is enough: an id is taken for a duplicate wrongly only when its prefix equals
 * one of at most 3,000 remembered ones, probability ≤ 3,000 / 2^64 ≈ 1.6e-16 per delivery; 2,400
 * deliveries a day for 100 years stay below 2e-8 of ever dropping one event. Ids reach the memory
 * only after the signature is verified, so nobody without the secret can pick ids to collide.
 */
import { createHash } from 'node:crypto';

export interface EnvelopeMemoryLimits {
	maxEntries: number;
	windowHours: number;
}

/** The busiest trigger whose every retry and redelivery within the window is recognised. */
export const EVENTS_PER_HOUR_COVERED = 100;

const WINDOW_HOURS = 30;

export const ENVELOPE_MEMORY_LIMITS: EnvelopeMemoryLimits = {
	maxEntries: EVENTS_PER_HOUR_COVERED * WINDOW_HOURS,
	windowHours: WINDOW_HOURS,
};

const HASH_BYTES = 8;
const SECONDS_PER_HOUR = 3600;

/**
 * id hash → hour it was first accepted; kept in order, oldest first. A hash is its 8 bytes as a
 * latin1 string (one character per byte), so encoding and decoding are one buffer operation per
 * hour rather than one per id: this runs on every delivery.
 */
export type EnvelopeMemory = Map<string, number>;

/** The stored form: hour since the epoch → concatenated id hashes, base64. */
export type StoredEnvelopeMemory = Record<string, string>;

/** The first format (until 0.x): envelope id → unix seconds when it was first accepted. */
export type LegacyRecentEnvelopes = Record<string, number>;

export function envelopeHash(envelopeId: string): string {
	return createHash('sha256')
		.update(envelopeId)
		.digest()
		.subarray(0, HASH_BYTES)
		.toString('latin1');
}

export function hourOf(nowSeconds: number): number {
	return Math.floor(nowSeconds / SECONDS_PER_HOUR);
}

/**
 * What one hour's ids encoded to, keyed by what identifies them: ids of an hour are only appended,
 * dropped from the front (the oldest, beyond the limit) or taken out one at a time (given up), so
 * the count with the first and last id tells whether the hour changed. Encoding a full memory anew
 * for every delivery would cost a millisecond; with the cache, only the current hour is encoded.
 */
export type HourEncodings = Map<number, { key: string; encoded: string }>;

interface HourRun {
	hour: number;
	/** Position of the hour's first id in the memory. */
	from: number;
	count: number;
	key: string;
	first: string;
	last: string;
	hashes?: string[];
}

/** The memory's hours in order, each the run of its ids (forEach: no pair allocated per id). */
function hourRuns(memory: EnvelopeMemory): HourRun[] {
	const runs: HourRun[] = [];
	let position = 0;
	memory.forEach((hour, hash) => {
		const run = runs[runs.length - 1];
		if (run?.hour === hour) {
			run.count++;
			run.last = hash;
		} else runs.push({ hour, from: position, count: 1, key: '', first: hash, last: hash });
		position++;
	});
	for (const run of runs) run.key = `${run.count}:${run.first}:${run.last}`;
	return runs;
}

/** Collects the ids of the given runs (in memory order) in one pass. */
function collectHashes(memory: EnvelopeMemory, runs: HourRun[]): void {
	for (const run of runs) run.hashes = [];
	let next = 0;
	let position = 0;
	memory.forEach((_, hash) => {
		while (next < runs.length && position >= runs[next].from + runs[next].count) next++;
		if (next < runs.length && position >= runs[next].from) runs[next].hashes!.push(hash);
		position++;
	});
}

export function encodeMemory(
	memory: EnvelopeMemory,
	cache: HourEncodings = new Map(),
): StoredEnvelopeMemory {
	const runs = hourRuns(memory);
	const changed = runs.filter((run) => cache.get(run.hour)?.key !== run.key);
	collectHashes(memory, changed);
	for (const run of changed) {
		const encoded = Buffer.from(run.hashes!.join(''), 'latin1').toString('base64');
		cache.set(run.hour, { key: run.key, encoded });
	}
	const stored: StoredEnvelopeMemory = {};
	for (const run of runs) stored[String(run.hour)] = cache.get(run.hour)!.encoded;
	for (const hour of cache.keys()) if (!(String(hour) in stored)) cache.delete(hour);
	return stored;
}

/** Anything unreadable (hand-edited or half-written static data) is skipped, never thrown on. */
export function decodeMemory(stored: unknown): EnvelopeMemory {
	const entries: Array<[string, number]> = [];
	if (typeof stored === 'object' && stored !== null) {
		for (const [key, value] of Object.entries(stored)) {
			const hour = Number(key);
			if (!Number.isInteger(hour) || typeof value !== 'string') continue;
			const hashes = Buffer.from(value, 'base64').toString('latin1');
			for (let at = 0; at + HASH_BYTES <= hashes.length; at += HASH_BYTES) {
				entries.push([hashes.slice(at, at + HASH_BYTES), hour]);
			}
		}
	}
	return inOrder(entries);
}

/** Reads the first format once, so workflows active before the change keep their memory. */
export function migrateLegacy(recent: unknown): EnvelopeMemory {
	const entries: Array<[string, number]> = [];
	if (typeof recent === 'object' && recent !== null) {
		for (const [id, seenAt] of Object.entries(recent)) {
			if (typeof seenAt === 'number') entries.push([envelopeHash(id), hourOf(seenAt)]);
		}
	}
	return inOrder(entries);
}

/**
 * The union of several memories, each id at the hour it was first accepted, within the limits:
 * hours older than the window are dropped, then the oldest ids beyond `maxEntries`.
 */
export function mergeMemories(
	memories: EnvelopeMemory[],
	nowSeconds: number,
	limits: EnvelopeMemoryLimits = ENVELOPE_MEMORY_LIMITS,
): EnvelopeMemory {
	const oldestHour = hourOf(nowSeconds) - limits.windowHours + 1;
	const firstSeen = new Map<string, number>();
	for (const memory of memories) {
		for (const [hash, hour] of memory) {
			if (hour < oldestHour) continue;
			const known = firstSeen.get(hash);
			if (known === undefined || hour < known) firstSeen.set(hash, hour);
		}
	}
	const entries = [...inOrder([...firstSeen])];
	return new Map(entries.slice(Math.max(0, entries.length - limits.maxEntries)));
}

/**
 * Merges the memories, then records `envelopeId` unless it is among them. Pure: the caller keeps
 * the returned memory.
 */
export function recordEnvelope(
	memories: EnvelopeMemory[],
	envelopeId: string,
	nowSeconds: number,
	limits: EnvelopeMemoryLimits = ENVELOPE_MEMORY_LIMITS,
): { duplicate: boolean; memory: EnvelopeMemory } {
	const merged = mergeMemories(memories, nowSeconds, limits);
	const hash = envelopeHash(envelopeId);
	if (merged.has(hash)) return { duplicate: true, memory: merged };
	// the newest hour: appended, the order holds; beyond the limit the oldest id goes
	merged.set(hash, hourOf(nowSeconds));
	if (merged.size > limits.maxEntries) merged.delete(merged.keys().next().value as string);
	return { duplicate: false, memory: merged };
}

/**
 * {@link recordEnvelope} on one memory, changed in place: for the memory a process keeps, where
 * copying and sorting thousands of ids for every delivery would cost more than the delivery.
 * `memory` must be in order (oldest hour first), as every function here keeps it.
 */
export function recordInPlace(
	memory: EnvelopeMemory,
	envelopeId: string,
	nowSeconds: number,
	limits: EnvelopeMemoryLimits = ENVELOPE_MEMORY_LIMITS,
): boolean {
	const oldestHour = hourOf(nowSeconds) - limits.windowHours + 1;
	for (const [hash, hour] of memory) {
		if (hour >= oldestHour) break;
		memory.delete(hash);
	}
	const hash = envelopeHash(envelopeId);
	if (memory.has(hash)) return true;
	memory.set(hash, hourOf(nowSeconds));
	for (const oldest of memory.keys()) {
		if (memory.size <= limits.maxEntries) break;
		memory.delete(oldest);
	}
	return false;
}

/** Oldest hour first; within an hour, the order given (a stable sort). */
function inOrder(entries: Array<[string, number]>): EnvelopeMemory {
	return new Map(entries.sort(([, left], [, right]) => left - right));
}

/** The part of the trigger's static data that holds the duplicate memory. */
export interface DuplicateMemoryStaticData {
	seenEnvelopes?: StoredEnvelopeMemory;
	/** The first format, read once and removed. */
	recentEnvelopes?: unknown;
}

/** Unchanged memory is not written, so n8n has nothing to save for it. */
export function sameStoredMemory(encoded: StoredEnvelopeMemory, stored: unknown): boolean {
	if (typeof stored !== 'object' || stored === null) return false;
	const storedHours = Object.entries(stored);
	return (
		storedHours.length === Object.keys(encoded).length &&
		storedHours.every(([hour, hashes]) => encoded[hour] === hashes)
	);
}

/** On deactivation: the endpoint is gone, and with it every id it could repeat. */
export function forgetAcceptedEnvelopes(staticData: DuplicateMemoryStaticData): void {
	delete staticData.seenEnvelopes;
	delete staticData.recentEnvelopes;
}
