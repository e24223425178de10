/** The duplicate memory as recovery asks it: did this trigger already run the event? */
import { ENVELOPE_MEMORY_LIMITS, envelopeHash, hourOf } from '../duplicates/envelopeMemory';
import { decodeMemory } from '../duplicates/storedMemory';
import type { TriggerStaticData } from '../staticData';

export interface KnownEnvelopes {
	/**
	 * Whether the memory stored in static data holds the id. Its age window is not applied: while
	 * n8n was stopped nothing pruned it, and an id it still holds did run.
	 */
	isKnown: (eventId: string) => boolean;
	/**
	 * Whether a delivery of the id arriving in the next minutes is still taken for a duplicate: the
	 * memory holds it within its window (with an hour to spare).
	 */
	confirmsAsDuplicate: (eventId: string) => boolean;
}

/** Reads the memory stored in static data once. */
export function knownEnvelopes(staticData: TriggerStaticData, nowSeconds: number): KnownEnvelopes {
	const memory = decodeMemory(staticData.seenEnvelopes);
	const oldestSafeHour = hourOf(nowSeconds) - ENVELOPE_MEMORY_LIMITS.windowHours + 2;
	return {
		isKnown: (eventId) => memory.has(envelopeHash(eventId)),
		confirmsAsDuplicate: (eventId) => (memory.get(envelopeHash(eventId)) ?? -1) >= oldestSafeHour,
	};
}
