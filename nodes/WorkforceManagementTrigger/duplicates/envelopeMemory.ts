/**
 * The trigger's duplicate memory: which envelope ids it accepted recently, each as a fingerprint
 * with the hour it was first accepted; its stored form is storedMemory.ts.
 *
 * Why every id for 30 hours: the API retries a failed delivery for about 24 hours (up to 8
 * attempts) with the same envelope id, and a redelivery someone asks for repeats it too, however
 * the first delivery ended; nothing the trigger sees tells which ids can still come back, so it
 * keeps them all for at least 29 hours, up to `EVENTS_PER_HOUR_COVERED` an hour. Beyond that rate
 * the oldest are forgotten first (retries of recent ids are the likely ones). The cost is weight:
 * n8n copies static data into every execution record (docs/webhooks.md has the figures).
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

import type { DuplicateMemoryStaticData } from '../staticData';

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

/** How much of an id's SHA-256 the memory keeps (storedMemory.ts: why 37). */
export const FINGERPRINT_BITS = 37;
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
export function fingerprintOf(digest: Buffer): number {
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
export function inOrder(entries: Array<[number, number]>): EnvelopeMemory {
	return memoryOf(entries.sort(([, left], [, right]) => left - right));
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

/** When a new endpoint is registered: the old ones are gone, and with them every id they could repeat. */
export function forgetAcceptedEnvelopes(staticData: DuplicateMemoryStaticData): void {
	delete staticData.seenEnvelopes;
	delete staticData.recentEnvelopes;
}
