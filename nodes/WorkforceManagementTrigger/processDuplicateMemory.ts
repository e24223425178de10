/**
 * Exactly once under bursts, in one n8n process.
 *
 * n8n 2.8 loads the workflow's static data fresh for each webhook request and saves it whole after
 * `webhook()` returns, with no lock: with concurrent deliveries the last save wins, and two copies
 * of one envelope arriving together both find it unknown. So the ids accepted by this process are
 * also kept here, per workflow and trigger node. Each delivery checks and records its id
 * synchronously (no await in between, so a simultaneous copy cannot slip through) against the
 * union of this memory and what static data holds, and writes that union back to static data, so a
 * later save restores ids an earlier one dropped.
 *
 * Across several webhook processes (queue mode) only static data is shared: sequential copies are
 * caught, simultaneous copies landing on two processes at once can both run.
 */
import {
	decodeMemory,
	encodeMemory,
	type EnvelopeMemory,
	migrateLegacy,
	recordEnvelope,
	type StoredEnvelopeMemory,
} from './envelopeMemory';

/** The part of the trigger's static data that holds the duplicate memory. */
export interface DuplicateMemoryStaticData {
	seenEnvelopes?: StoredEnvelopeMemory;
	/** The first format, read once and removed. */
	recentEnvelopes?: unknown;
}

/** Per workflow and node: the ids accepted here, and the stored form last written from them. */
const acceptedInThisProcess = new Map<
	string,
	{ memory: EnvelopeMemory; written: StoredEnvelopeMemory }
>();

function ownerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\u0000${nodeId}`;
}

/**
 * Records `envelopeId` for the given workflow and node; returns false when it was accepted before
 * (in this process or, per static data, in any other). Synchronous on purpose.
 */
export function acceptEnvelopeOnce(
	staticData: DuplicateMemoryStaticData,
	owner: { workflowId: string | undefined; nodeId: string },
	envelopeId: string,
	nowSeconds: number,
): boolean {
	const key = ownerKey(owner.workflowId, owner.nodeId);
	const known = acceptedInThisProcess.get(key);
	// static data as this process last wrote it holds nothing new: skip decoding it
	const stored =
		known && sameStoredMemory(known.written, staticData.seenEnvelopes)
			? new Map<string, number>()
			: decodeMemory(staticData.seenEnvelopes);
	const legacy = migrateLegacy(staticData.recentEnvelopes);
	const inProcess = known?.memory ?? new Map<string, number>();

	const { duplicate, memory } = recordEnvelope([stored, legacy, inProcess], envelopeId, nowSeconds);
	const encoded = encodeMemory(memory);
	acceptedInThisProcess.set(key, { memory, written: encoded });
	if (!sameStoredMemory(encoded, staticData.seenEnvelopes)) staticData.seenEnvelopes = encoded;
	if (staticData.recentEnvelopes !== undefined) delete staticData.recentEnvelopes;
	return !duplicate;
}

/** Unchanged memory is not written, so n8n has nothing to save for it. */
function sameStoredMemory(encoded: StoredEnvelopeMemory, stored: unknown): boolean {
	if (typeof stored !== 'object' || stored === null) return false;
	const storedHours = Object.entries(stored);
	return (
		storedHours.length === Object.keys(encoded).length &&
		storedHours.every(([hour, hashes]) => encoded[hour] === hashes)
	);
}

/** On deactivation: the endpoint is gone, and with it every id it could repeat. */
export function forgetAcceptedEnvelopes(
	staticData: DuplicateMemoryStaticData,
	owner: { workflowId: string | undefined; nodeId: string },
): void {
	acceptedInThisProcess.delete(ownerKey(owner.workflowId, owner.nodeId));
	delete staticData.seenEnvelopes;
	delete staticData.recentEnvelopes;
}
