/**
 * The duplicate memory as static data keeps it (`seenEnvelopes`), small enough to ride along in
 * every execution record (n8n 2.8 copies the workflow's static data into each one).
 *
 * Stored shape: `format` → `FORMAT`, and hour since the epoch → the
 * fingerprints of the ids first accepted in that hour (the first 37 bits of their SHA-256), Rice
 * coded in Z85 (fingerprintCoding.ts), e.g. `{"format":"rice37","493852":"x0rL…"}`. About 5.1
 * characters an id at 100 ids an hour, plus ~13 an hour: a full memory (3,000 ids over 30 hours)
 * takes about 15.5 KB; 3,000 ids in one hour about 12.8 KB. The format before (until 0.1): the
 * hours' 8-byte SHA-256 prefixes in base64 (10.7 characters an id), read and rewritten.
 *
 * Why 37 bits: an id is taken for a duplicate wrongly only when its fingerprint equals one of at
 * most 3,000 remembered ones, probability ≤ 3,000 / 2^37 ≈ 2.2e-8 per delivery (one in 46 million)
 * with a full memory, less with fewer ids. A trigger at 100 events an hour around the clock drops
 * one event that way every 52 years on average. Each bit more would halve that rate and cost 375
 * bytes in every execution record (docs/performance.md). Ids reach the memory only after the signature
 * is verified, so nobody without the secret can pick ids to collide.
 */
import {
	ENVELOPE_MEMORY_LIMITS,
	type EnvelopeMemory,
	type EnvelopeMemoryLimits,
	FINGERPRINT_BITS,
	fingerprintOf,
	hourOf,
	inOrder,
} from './envelopeMemory';
import { decodeFingerprintSet, encodeFingerprintSet, type SetEncoding } from './fingerprintCoding';
import type { StoredEnvelopeMemory } from '../staticData';

/** The stored memory's `format` key and value; hours are the other keys. */
const FORMAT_KEY = 'format';
const FORMAT = 'rice37';
/** The format before: each hour's ids as 8-byte SHA-256 prefixes, in base64. */
const PREFIX_BYTES = 8;

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

/** Unchanged memory is not written, so n8n has nothing to save for it. */
export function sameStoredMemory(encoded: StoredEnvelopeMemory, stored: unknown): boolean {
	if (typeof stored !== 'object' || stored === null) return false;
	const storedHours = Object.entries(stored);
	return (
		storedHours.length === Object.keys(encoded).length &&
		storedHours.every(([hour, hashes]) => encoded[hour] === hashes)
	);
}
