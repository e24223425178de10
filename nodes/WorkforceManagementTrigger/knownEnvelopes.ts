/** The duplicate memory as recovery asks it: did this trigger already run the event? */
import { decodeMemory, envelopeHash } from './envelopeMemory';
import type { TriggerStaticData } from './delivery';

/**
 * Reads the memory stored in static data once. Its age window is not applied: while n8n was
 * stopped nothing pruned it, and an id it still holds did run.
 */
export function knownEnvelopeCheck(staticData: TriggerStaticData): (eventId: string) => boolean {
	const memory = decodeMemory(staticData.seenEnvelopes);
	return (eventId) => memory.has(envelopeHash(eventId));
}
