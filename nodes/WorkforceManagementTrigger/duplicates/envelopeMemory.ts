/**
 * The trigger's duplicate memory: which envelope ids it accepted recently, in a form small enough
 * to ride along in every execution record (n8n copies the workflow's static data into each one).
 *
 * Stored shape (static data `seenEnvelopes`): `format` → `FORMAT`, and hour since the epoch → the
 * fingerprints of the ids first accepted in that hour (the first 37 bits of their SHA-256), Rice
 * coded in Z85 (fingerprintCoding.ts), e.g. `{"format":"rice37","493852":"x0rL…"}`. About 5.1
 * characters an id at 100 ids an hour, plus ~13 an hour: a full memory (3,000 ids over 30 hours)
 * takes about 15.5 KB; 3,000 ids in one hour about 12.8 KB. The format before (until 0.1): the
 * hours' 8-byte SHA-256 prefixes in base64 (10.7 characters an id), read and rewritten.
 *
 * Why every id for 30 hours: the API retries a failed delivery for about 24 hours (up to 8
 * attempts) with the same envelope id, and a redelivery someone asks for repeats it too, however
 * the first delivery ended; nothing the trigger sees tells which ids can still come back, so it
 * keeps them all for at least 29 hours, up to `EVENTS_PER_HOUR_COVERED` an hour. Beyond that rate
 * the oldest are forgotten first (retries of recent ids are the likely ones). The cost is weight:
 * n8n copies static data into every execution record (docs/webhooks.md has the figures).
 *
 * Why 37 bits: an id is taken for a duplicate wrongly only when its fingerprint equals one of at
 * most 3,000 remembered ones, probability ≤ 3,000 / 2^37 ≈ 2.2e-8 per delivery (one in 46 million)
 * with a full memory, less with fewer ids. A trigger at 100 events an hour around the clock drops
 * one event that way every 52 years on average. Each bit more would double that and cost 375 bytes
 * in every execution record (docs/performance.md). Ids reach the memory only after the signature
 * is verified, so nobody without the secret can pick ids to collide.
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

import { decodeFingerprintSet, encodeFingerprintSet, type SetEncoding } from './fingerprintCoding';
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

const FINGERPRINT_BITS = 37;
/** The stored memory's `format` key and value; hours are the other keys. */
const FORMAT_KEY = 'format';
const FORMAT = 'rice37';
/** The format before: each hour's ids as 8-byte SHA-256 prefixes, in base64. */
const PREFIX_BYTES = 8;
const SECONDS_PER_HOUR = 3600;

/**
 * id fingerprint → hour it was first accepted; kept in order, oldest hour first, by every function
 * here (pruning and eviction read it from the front). A memory recorded into in place gets its ids
 * only through these functions; deleting one is fine.
 */
export type EnvelopeMemory = Map<number, number>;

/** The first format (until 0.x): envelope id → unix seconds when it was first accepted. */
export type LegacyRecentEnvelopes = Record<string, number>;

/** The first `FINGERPRINT_BITS` bits of a SHA-256 digest (or of its 8-byte prefix), as a number. */
function fingerprintOf(digest: Buffer): number {
	return Math.floor(digest.readUIntBE(0, 5) / 2 ** (40 - FINGERPRINT_BITS));
}

export function envelopeHash(envelopeId: string): number {
	return fingerprintOf(createHash('sha256').update(envelopeId).digest());
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
function memoryOf(entries: Array<[number, number]>): EnvelopeMemory {
	const memory: EnvelopeMemory = new Map(entries);
	latestHours.set(memory, entries.length > 0 ? entries[entries.length - 1][1] : -Infinity);
	return memory;
}

/** Oldest hour first; within an hour, the order given (a stable sort). */
function inOrder(entries: Array<[number, number]>): EnvelopeMemory {
	return memoryOf(entries.sort(([, left], [, right]) => left - right));
}

/** What each hour's ids encoded to last (fingerprintCoding.ts reuses the buckets that did not change). */
export type HourEncodings = Map<number, SetEncoding>;

/** Each hour's count and sum of fingerprints: what tells whether it changed since it was encoded. */
function hourTotals(memory: EnvelopeMemory): Map<number, { count: number; sum: number }> {
	const totals = new Map<number, { count: number; sum: number }>();
	let runHour = NaN;
	let run = { count: 0, sum: 0 };
	memory.forEach((hour, fingerprint) => {
		if (hour !== runHour) {
			runHour = hour;
			run = totals.get(hour) ?? { count: 0, sum: 0 };
			totals.set(hour, run);
		}
		run.count++;
		run.sum += fingerprint;
	});
	return totals;
}

/** The ids of the given hours, in one pass over the memory. */
function idsOfHours(memory: EnvelopeMemory, hours: number[]): Map<number, number[]> {
	const ids = new Map(hours.map((hour) => [hour, [] as number[]]));
	if (ids.size > 0) memory.forEach((hour, fingerprint) => ids.get(hour)?.push(fingerprint));
	return ids;
}

/**
 * One stored group per hour, holding every id of that hour, and the format's mark. Only the hours
 * (and within them the buckets) that changed since `cache` was filled are encoded again: on a
 * delivery, the current hour and, at a full memory, the oldest.
 */
export function encodeMemory(
	memory: EnvelopeMemory,
	cache: HourEncodings = new Map(),
): StoredEnvelopeMemory {
	const totals = hourTotals(memory);
	const changed = [...totals]
		.filter(
			([hour, { count, sum }]) => cache.get(hour)?.count !== count || cache.get(hour)?.sum !== sum,
		)
		.map(([hour]) => hour);
	for (const [hour, fingerprints] of idsOfHours(memory, changed)) {
		cache.set(hour, encodeFingerprintSet(fingerprints, FINGERPRINT_BITS, cache.get(hour)));
	}
	for (const hour of cache.keys()) if (!totals.has(hour)) cache.delete(hour);
	const stored: StoredEnvelopeMemory = { [FORMAT_KEY]: FORMAT };
	for (const hour of totals.keys()) stored[String(hour)] = cache.get(hour)!.text;
	return stored;
}

/** The stored hours with their text; anything else (hand-edited static data) is left out. */
function storedHours(stored: unknown): Array<[number, string]> {
	if (typeof stored !== 'object' || stored === null) return [];
	const hours: Array<[number, string]> = [];
	for (const [key, value] of Object.entries(stored)) {
		const hour = Number(key);
		if (key !== FORMAT_KEY && Number.isInteger(hour) && typeof value === 'string') {
			hours.push([hour, value]);
		}
	}
	return hours;
}

function isCurrentFormat(stored: unknown): boolean {
	return (stored as Record<string, unknown> | null | undefined)?.[FORMAT_KEY] === FORMAT;
}

/**
 * The fingerprints of one stored hour, in the current format or the one before, but for the
 * buckets `skip` names.
 */
function hourFingerprints(
	text: string,
	currentFormat: boolean,
	skip?: (bucket: number, bucketText: string) => boolean,
): number[] {
	if (currentFormat) return decodeFingerprintSet(text, FINGERPRINT_BITS, skip);
	const prefixes = Buffer.from(text, 'base64');
	const fingerprints: number[] = [];
	for (let at = 0; at + PREFIX_BYTES <= prefixes.length; at += PREFIX_BYTES) {
		fingerprints.push(fingerprintOf(prefixes.subarray(at, at + PREFIX_BYTES)));
	}
	return fingerprints;
}

/**
 * Anything unreadable (hand-edited or half-written static data) is skipped, never thrown on. Hours
 * are as stored, later than the reader's included: recording or merging takes those as now.
 */
export function decodeMemory(stored: unknown): EnvelopeMemory {
	const currentFormat = isCurrentFormat(stored);
	const entries: Array<[number, number]> = [];
	for (const [hour, text] of storedHours(stored)) {
		for (const fingerprint of hourFingerprints(text, currentFormat))
			entries.push([fingerprint, hour]);
	}
	return inOrder(entries);
}

/**
 * What a stored memory adds to `known`: its ids `known` lacks or holds at a later hour, within the
 * window, not in `ignored`, and not ones a merge would evict at once (`known` is full and holds
 * nothing older). An hour, or a bucket of one, stored as `encodings` last encoded it adds nothing
 * and is not decoded: a process reading back what it wrote, or an earlier save of it (most
 * deliveries), decodes at most the buckets another process, a restart or a burst changed.
 */
export function newInStored(
	stored: unknown,
	known: { memory: EnvelopeMemory; encodings: HourEncodings; ignored: EnvelopeMemory },
	nowSeconds: number,
	limits: EnvelopeMemoryLimits = ENVELOPE_MEMORY_LIMITS,
): EnvelopeMemory {
	const nowHour = hourOf(nowSeconds);
	const oldestHour = nowHour - limits.windowHours + 1;
	const evictedBelow =
		known.memory.size >= limits.maxEntries ? (known.memory.values().next().value ?? 0) + 1 : 0;
	const currentFormat = isCurrentFormat(stored);
	const entries: Array<[number, number]> = [];
	for (const [storedHour, text] of storedHours(stored)) {
		const hour = Math.min(storedHour, nowHour);
		if (hour < Math.max(oldestHour, evictedBelow)) continue;
		const written = known.encodings.get(storedHour);
		if (written?.text === text) continue;
		const sameBuckets = written?.buckets.length === text.split(' ').length;
		const writtenBucket = (bucket: number, bucketText: string) =>
			sameBuckets && written?.buckets[bucket].text === bucketText;
		for (const fingerprint of hourFingerprints(text, currentFormat, writtenBucket)) {
			const knownHour = known.memory.get(fingerprint);
			if ((knownHour === undefined || knownHour > hour) && !known.ignored.has(fingerprint)) {
				entries.push([fingerprint, storedHour]);
			}
		}
	}
	return inOrder(entries);
}

/** Reads the first format once, so workflows active before the change keep their memory. */
export function migrateLegacy(recent: unknown): EnvelopeMemory {
	const entries: Array<[number, number]> = [];
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
	const firstSeen = new Map<number, number>();
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
	hash: number,
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
