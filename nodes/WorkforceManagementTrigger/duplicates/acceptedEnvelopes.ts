/**
 * Exactly once in one n8n process, with every accepted id carried into static data.
 *
 * n8n loads the workflow's static data fresh for each webhook request and, once the execution has
 * started, saves it whole just before it answers; when starting the execution fails it answers 500
 * and saves nothing. There is no lock: with concurrent deliveries the last save wins. So this
 * process keeps, per registration, the ids it accepted, and whenever that memory changes it writes
 * it into the static data of every request still in flight. Whichever request n8n saves last
 * carries every id accepted before its save, a burst included. Each delivery checks and records
 * its id synchronously (no await in between), so a simultaneous copy cannot slip through.
 *
 * An id whose execution did not start (n8n answered 500, or the client closed the connection before
 * n8n answered: its database can keep `WorkflowRunner.run` waiting longer than the API waits) is
 * given up: dropped from the memory and from the static data of requests in flight, and a copy
 * another request saved meanwhile no longer counts in this process. Its retry runs. Should the run
 * have started after the client gave up, the event runs twice; it is never lost.
 *
 * A registration is a trigger node's production webhook or its test listener (n8n gives "Listen for
 * test event" production's workflow and node id, but its own URL, static data and executions). The
 * memory only has to bridge the moments between a request loading static data and the last save, so
 * it is bounded: a registration idle for an hour is dropped, and beyond
 * `ACCEPTED_ENVELOPES_LIMITS.maxRegistrations` the least recently used goes first.
 */
import { PER_PROCESS_ENTRIES } from '../boundedMap';
import type { DuplicateMemoryStaticData } from '../staticData';
import {
	type EnvelopeMemory,
	envelopeHash,
	hourOf,
	mergeMemories,
	migrateLegacy,
	recordEnvelope,
	recordInPlace,
} from './envelopeMemory';
import { encodeMemory, type HourEncodings, newInStored, sameStoredMemory } from './storedMemory';

/** The duplicate memory of one registration (a trigger's production webhook or test listener). */
interface RegistrationMemory {
	accepted: EnvelopeMemory;
	/** Ids whose execution did not start: a stored copy of one of them does not count. */
	givenUp: EnvelopeMemory;
	/** The static data of requests n8n has not answered yet; any of them may be saved last. */
	inFlight: Set<DuplicateMemoryStaticData>;
	/** Each hour's stored form as last encoded from `accepted` (newInStored skips those hours). */
	encodings: HourEncodings;
	usedAt: number;
}

/** The bound of {@link acceptedByRegistration}, applied whenever a registration is used. */
export const ACCEPTED_ENVELOPES_LIMITS = {
	maxRegistrations: PER_PROCESS_ENTRIES,
	idleSeconds: 3600,
};

/**
 * Per-process memory: the envelope ids this process accepted, by registration, least recently used
 * first, with the static data of the requests in flight they are written into. At most
 * `ACCEPTED_ENVELOPES_LIMITS.maxRegistrations` registrations, one idle for
 * `ACCEPTED_ENVELOPES_LIMITS.idleSeconds` dropped; each holds at most
 * `ENVELOPE_MEMORY_LIMITS.maxEntries` ids. Per process because it bridges the requests this process
 * has in flight.
 */
const acceptedByRegistration = new Map<string, RegistrationMemory>();

/** One registration of a trigger node: production's, or a test listener's. */
export interface MemoryOwner {
	workflowId: string | undefined;
	nodeId: string;
	testListener: boolean;
}

function ownerKey(owner: MemoryOwner): string {
	return [owner.workflowId ?? '', owner.nodeId, owner.testListener ? 'test' : ''].join('\u0000');
}

function registrationMemory(key: string, nowSeconds: number): RegistrationMemory {
	const known = acceptedByRegistration.get(key);
	acceptedByRegistration.delete(key);
	const entry = known ?? {
		accepted: new Map<number, number>(),
		givenUp: new Map<number, number>(),
		inFlight: new Set(),
		encodings: new Map(),
		usedAt: nowSeconds,
	};
	entry.usedAt = nowSeconds;
	acceptedByRegistration.set(key, entry);
	for (const [oldestKey, oldest] of acceptedByRegistration) {
		const idle = nowSeconds - oldest.usedAt > ACCEPTED_ENVELOPES_LIMITS.idleSeconds;
		if (!idle && acceptedByRegistration.size <= ACCEPTED_ENVELOPES_LIMITS.maxRegistrations) break;
		acceptedByRegistration.delete(oldestKey);
	}
	return entry;
}

/** How many registrations this process holds a memory for (for tests and benchmarks). */
export function processMemorySize(): number {
	return acceptedByRegistration.size;
}

/**
 * What the loaded static data holds that this process does not (given-up ids aside): usually
 * nothing, found without decoding, since it is what this process wrote a moment ago (newInStored
 * skips every hour stored as this process last encoded it).
 */
function addedByLoadedMemory(
	entry: RegistrationMemory,
	staticData: DuplicateMemoryStaticData,
	nowSeconds: number,
): EnvelopeMemory {
	return newInStored(
		staticData.seenEnvelopes,
		{ memory: entry.accepted, encodings: entry.encodings, ignored: entry.givenUp },
		nowSeconds,
	);
}

function writeToRequestsInFlight(entry: RegistrationMemory): void {
	const encoded = encodeMemory(entry.accepted, entry.encodings);
	for (const staticData of entry.inFlight) {
		if (!sameStoredMemory(encoded, staticData.seenEnvelopes)) {
			staticData.seenEnvelopes = { ...encoded };
		}
	}
}

export interface Acceptance {
	/** Accepted before, in this process or, per static data, in any other. */
	duplicate: boolean;
	/**
	 * Once n8n has answered the request (or the client went away): `started` false forgets the id,
	 * so the API's retry is accepted.
	 */
	settle(started: boolean): void;
}

/**
 * Records `envelopeId` for the registration, in this process and in the static data of every
 * request in flight, this one's included. Synchronous on purpose.
 */
export function acceptEnvelope(
	staticData: DuplicateMemoryStaticData,
	owner: MemoryOwner,
	envelopeId: string,
	nowSeconds: number,
): Acceptance {
	const entry = registrationMemory(ownerKey(owner), nowSeconds);
	const stored = addedByLoadedMemory(entry, staticData, nowSeconds);
	const legacy = migrateLegacy(staticData.recentEnvelopes);
	let duplicate: boolean;
	if (stored.size === 0 && legacy.size === 0) {
		// what static data holds, this process wrote: its own memory is the whole of it
		duplicate = recordInPlace(entry.accepted, envelopeId, nowSeconds);
	} else {
		const recorded = recordEnvelope([stored, legacy, entry.accepted], envelopeId, nowSeconds);
		duplicate = recorded.duplicate;
		entry.accepted = recorded.memory;
	}
	const hash = envelopeHash(envelopeId);
	if (entry.givenUp.size > 0) entry.givenUp = mergeMemories([entry.givenUp], nowSeconds);
	entry.givenUp.delete(hash);
	if (staticData.recentEnvelopes !== undefined) delete staticData.recentEnvelopes;
	entry.inFlight.add(staticData);
	writeToRequestsInFlight(entry);

	return {
		duplicate,
		settle(started: boolean) {
			// this request's own static data keeps the id: n8n saves it only if the run started
			entry.inFlight.delete(staticData);
			if (started || duplicate) return;
			entry.accepted.delete(hash);
			entry.givenUp.set(hash, hourOf(nowSeconds));
			writeToRequestsInFlight(entry);
		},
	};
}

/**
 * Keeps the memory current in the static data of a request that changed static data without
 * accepting an envelope (a secret repair stored a new secret): n8n saves it whole, and the memory
 * it loaded, perhaps long before, would wipe ids other requests saved meanwhile. Returns what to
 * call once the request is over.
 */
export function carryMemoryInto(
	staticData: DuplicateMemoryStaticData,
	owner: MemoryOwner,
	nowSeconds: number,
): () => void {
	const entry = registrationMemory(ownerKey(owner), nowSeconds);
	const stored = addedByLoadedMemory(entry, staticData, nowSeconds);
	if (stored.size > 0) entry.accepted = mergeMemories([stored, entry.accepted], nowSeconds);
	entry.inFlight.add(staticData);
	writeToRequestsInFlight(entry);
	return () => entry.inFlight.delete(staticData);
}
