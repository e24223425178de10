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
 *
 * What it assumes of clocks: nothing about their order. The memory is a set of ids; the hour kept
 * with each only decides when it is forgotten, and a stored hour is one group whatever order its ids
 * came in. A reader never trusts an hour later than its own clock's: whenever it records into or
 * merges a memory, such an id is taken as first accepted in the reader's current hour. So a clock
 * stepped back (NTP) or another process's clock running ahead loses no id and keeps none past the
 * window by the reader's clock; such an id is kept for at least 29 hours less the step, still far
 * beyond the API's 24 hours of retries.
 */
import { createHash } from 'node:crypto';

import type { DuplicateMemoryStaticData, StoredEnvelopeMemory } from '../staticData';

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
 * id hash → hour it was first accepted; kept in order, oldest hour first, by every function here
 * (pruning and eviction read it from the front). A memory recorded into in place gets its ids only
 * through these functions; deleting one is fine. A hash is its 8 bytes as a latin1 string (one
 * character per byte), so encoding and decoding are one buffer operation per hour rather than one
 * per id: this runs on every delivery.
 */
export type EnvelopeMemory = Map<string, number>;

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
 * Per-process memory: the latest hour of each memory built or recorded into here. A Map cannot be
 * read from its end, and recording must notice a clock stepped back without reading the whole
 * memory. Deleting ids leaves it an upper bound, which is all it is used as. Bound: one number per
 * memory still referenced (a WeakMap: an entry goes with its memory). Per process because it
 * describes this process's objects.
 */
const latestHours = new WeakMap<EnvelopeMemory, number>();

function latestHourOf(memory: EnvelopeMemory): number {
	const known = latestHours.get(memory);
	if (known !== undefined) return known;
	let latest = -Infinity;
	for (const hour of memory.values()) if (hour > latest) latest = hour;
	latestHours.set(memory, latest);
	return latest;
}

/** A memory of entries already in order, oldest hour first. */
function memoryOf(entries: Array<[string, number]>): EnvelopeMemory {
	const memory: EnvelopeMemory = new Map(entries);
	latestHours.set(memory, entries.length > 0 ? entries[entries.length - 1][1] : -Infinity);
	return memory;
}

/** Oldest hour first; within an hour, the order given (a stable sort). */
function inOrder(entries: Array<[string, number]>): EnvelopeMemory {
	return memoryOf(entries.sort(([, left], [, right]) => left - right));
}

/**
 * What one hour's ids encoded to, keyed by what identifies them: ids of an hour are only appended
 * (recorded, or taken as the current hour after a clock step: both at the memory's end), dropped
 * from the front (the oldest, beyond the limit) or taken out one at a time (given up), so the count
 * with the first and last id tells whether the hour changed. Encoding a full memory anew for every
 * delivery would cost a millisecond; with the cache, only the current hour is encoded.
 */
export type HourEncodings = Map<number, { key: string; encoded: string }>;

interface HourGroup {
	hour: number;
	count: number;
	first: string;
	last: string;
	key: string;
	hashes: string[];
}

function addGroup(groups: Map<number, HourGroup>, hour: number, hash: string): HourGroup {
	const group = { hour, count: 0, first: hash, last: hash, key: '', hashes: [] };
	groups.set(hour, group);
	return group;
}

/**
 * Every hour of the memory with all of its ids, wherever they are in the memory (forEach: no pair
 * allocated per id; one lookup per run of an hour).
 */
function hourGroups(memory: EnvelopeMemory): Map<number, HourGroup> {
	const groups = new Map<number, HourGroup>();
	let group: HourGroup | undefined;
	memory.forEach((hour, hash) => {
		if (group?.hour !== hour) group = groups.get(hour) ?? addGroup(groups, hour, hash);
		group.count++;
		group.last = hash;
	});
	for (const each of groups.values()) each.key = `${each.count}:${each.first}:${each.last}`;
	return groups;
}

/** Collects the ids of the given hours in one pass over the memory. */
function collectHashes(memory: EnvelopeMemory, changed: Map<number, HourGroup>): void {
	if (changed.size === 0) return;
	let runHour = NaN;
	let hashes: string[] | undefined;
	memory.forEach((hour, hash) => {
		if (hour !== runHour) {
			runHour = hour;
			hashes = changed.get(hour)?.hashes;
		}
		hashes?.push(hash);
	});
}

/** One stored group per hour, holding every id of that hour. */
export function encodeMemory(
	memory: EnvelopeMemory,
	cache: HourEncodings = new Map(),
): StoredEnvelopeMemory {
	const groups = hourGroups(memory);
	const changed = new Map(
		[...groups].filter(([hour, group]) => cache.get(hour)?.key !== group.key),
	);
	collectHashes(memory, changed);
	for (const [hour, group] of changed) {
		const encoded = Buffer.from(group.hashes.join(''), 'latin1').toString('base64');
		cache.set(hour, { key: group.key, encoded });
	}
	const stored: StoredEnvelopeMemory = {};
	for (const hour of groups.keys()) stored[String(hour)] = cache.get(hour)!.encoded;
	for (const hour of cache.keys()) if (!groups.has(hour)) cache.delete(hour);
	return stored;
}

/**
 * Anything unreadable (hand-edited or half-written static data) is skipped, never thrown on. Hours
 * are as stored, later than the reader's included: recording or merging takes those as now.
 */
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
 * The union of several memories, each id at the hour it was first accepted (an hour later than the
 * reader's taken as the reader's), within the limits: hours older than the window are dropped,
 * then the oldest ids beyond `maxEntries`.
 */
export function mergeMemories(
	memories: EnvelopeMemory[],
	nowSeconds: number,
	limits: EnvelopeMemoryLimits = ENVELOPE_MEMORY_LIMITS,
): EnvelopeMemory {
	const nowHour = hourOf(nowSeconds);
	const oldestHour = nowHour - limits.windowHours + 1;
	const firstSeen = new Map<string, number>();
	for (const memory of memories) {
		for (const [hash, storedHour] of memory) {
			const hour = Math.min(storedHour, nowHour);
			if (hour < oldestHour) continue;
			const known = firstSeen.get(hash);
			if (known === undefined || hour < known) firstSeen.set(hash, hour);
		}
	}
	const entries = [...firstSeen].sort(([, left], [, right]) => left - right);
	return memoryOf(entries.slice(Math.max(0, entries.length - limits.maxEntries)));
}

/** Adds a new id at the reader's hour (the memory's end: its latest), then evicts the oldest. */
function appendNow(
	memory: EnvelopeMemory,
	hash: string,
	nowHour: number,
	maxEntries: number,
): void {
	memory.set(hash, nowHour);
	latestHours.set(memory, nowHour);
	for (const oldest of memory.keys()) {
		if (memory.size <= maxEntries) break;
		memory.delete(oldest);
	}
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
	appendNow(merged, hash, hourOf(nowSeconds), limits.maxEntries);
	return { duplicate: false, memory: merged };
}

/**
 * Ids at an hour later than the reader's (this process's clock stepped back) are taken as the
 * reader's: they are the memory's end, so the order holds. Costs nothing unless the clock stepped.
 */
function takeLaterHoursAsNow(memory: EnvelopeMemory, nowHour: number): void {
	if (latestHourOf(memory) <= nowHour) return;
	for (const [hash, hour] of memory) if (hour > nowHour) memory.set(hash, nowHour);
	latestHours.set(memory, nowHour);
}

/** Drops the ids older than `oldestHour`: all at the memory's front, since it is in order. */
function dropOlderThan(memory: EnvelopeMemory, oldestHour: number): void {
	for (const [hash, hour] of memory) {
		if (hour >= oldestHour) break;
		memory.delete(hash);
	}
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
	const nowHour = hourOf(nowSeconds);
	takeLaterHoursAsNow(memory, nowHour);
	dropOlderThan(memory, nowHour - limits.windowHours + 1);
	const hash = envelopeHash(envelopeId);
	if (memory.has(hash)) return true;
	appendNow(memory, hash, nowHour, limits.maxEntries);
	return false;
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
