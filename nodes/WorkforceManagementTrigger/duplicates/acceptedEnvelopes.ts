/**
 * Exactly once in one n8n process; across processes and restarts, never lost and at most once for
 * every id whose execution is known to have started.
 *
 * n8n loads the workflow's static data fresh for each webhook request and, once the execution has
 * started, saves it whole just before it answers; when starting the execution fails it answers 500
 * and saves nothing. There is no lock: with concurrent deliveries the last save wins. So this
 * process keeps, per registration, the ids it accepted, and whenever that memory changes it writes
 * it into the static data of every request still in flight: whichever request n8n saves last
 * carries what was known before its save. Each delivery checks and records its id synchronously (no
 * await in between), so a simultaneous copy cannot slip through.
 *
 * Static data stores an id only once its execution is known to have started (confirmed): a request
 * stores its own id (n8n saves that static data only if the run started), and every request stores
 * the ids this process saw settle as started, or read as confirmed in static data. An id accepted
 * but not yet settled stays in this process's memory only. Were it stored in another request's
 * save, and this process died before its own start failed (n8n stopped or killed, the connection
 * cut), the next process, or another webhook process, would read it and take the API's retry for a
 * duplicate: the event would be lost.
 *
 * An id whose execution did not start (n8n answered 500, or the client closed the connection before
 * n8n answered: its database can keep `WorkflowRunner.run` waiting longer than the API waits) is
 * given up: dropped from the memory and from the static data of requests in flight, and a copy
 * another request saved meanwhile no longer counts in this process. Its retry runs. Should the run
 * have started after the client gave up, the event runs twice; it is never lost. So does an event
 * whose run started but whose answer was lost, when the last save before the process died was
 * another request's, made before this one settled.
 *
 * A registration is a trigger node's production webhook or its test listener (n8n gives "Listen for
 * test event" production's workflow and node id, but its own URL, static data and executions). The
 * memory only has to bridge the moments between a request loading static data and the last save, so
 * it is bounded: a registration idle for an hour is dropped, and beyond
 * `ACCEPTED_ENVELOPES_LIMITS.maxRegistrations` the least recently used goes first (processMemory.ts).
 */
import {
	ACCEPTED_ENVELOPES_LIMITS,
	acceptedByRegistration,
	type RegistrationMemory,
} from '../processMemory';
import {
	addInOrder,
	changedHours,
	decodeMemory,
	type DuplicateMemoryStaticData,
	encodeMemory,
	envelopeHash,
	hourOf,
	mergeMemories,
	migrateLegacy,
	pruneInPlace,
	sameStoredMemory,
	withEnvelope,
} from './envelopeMemory';

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
		confirmed: new Map(),
		unsettled: new Map(),
		givenUp: new Map(),
		inFlight: new Map(),
		written: {},
		encodings: new Map(),
		usedAt: nowSeconds,
	};
	entry.usedAt = Math.max(entry.usedAt, nowSeconds);
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
 * Takes in the confirmed ids static data holds that this process does not know as confirmed (a
 * save of another process, a save of a request here not settled yet, the first format). Only the
 * hours that differ from what this process last wrote are decoded.
 */
function takeInStored(
	entry: RegistrationMemory,
	staticData: DuplicateMemoryStaticData,
	nowSeconds: number,
): void {
	pruneInPlace(entry.confirmed, nowSeconds);
	const stored = decodeMemory(changedHours(staticData.seenEnvelopes, entry.written));
	const legacy = migrateLegacy(staticData.recentEnvelopes);
	if (staticData.recentEnvelopes !== undefined) delete staticData.recentEnvelopes;
	const unknown = new Map(
		[...stored, ...legacy].filter(
			([hash]) => !entry.confirmed.has(hash) && !entry.givenUp.has(hash),
		),
	);
	const newestHour = hourOf(entry.usedAt);
	entry.confirmed = addInOrder(entry.confirmed, unknown, newestHour, nowSeconds);
}

function writeToRequestsInFlight(entry: RegistrationMemory): void {
	const encoded = encodeMemory(entry.confirmed, entry.encodings);
	entry.written = encoded;
	for (const [staticData, own] of entry.inFlight) {
		const ownHour = own === undefined ? undefined : entry.unsettled.get(own);
		const memory =
			own === undefined || ownHour === undefined || entry.confirmed.has(own)
				? encoded
				: withEnvelope(encoded, own, ownHour);
		if (!sameStoredMemory(memory, staticData.seenEnvelopes)) {
			staticData.seenEnvelopes = memory === encoded ? { ...encoded } : memory;
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
 * Records `envelopeId` for the registration, in this process, and in this request's static data
 * as confirmed (saved only if its run starts). Synchronous on purpose.
 */
export function acceptEnvelope(
	staticData: DuplicateMemoryStaticData,
	owner: MemoryOwner,
	envelopeId: string,
	nowSeconds: number,
): Acceptance {
	const entry = registrationMemory(ownerKey(owner), nowSeconds);
	if (entry.givenUp.size > 0) entry.givenUp = mergeMemories([entry.givenUp], nowSeconds);
	takeInStored(entry, staticData, nowSeconds);
	const hash = envelopeHash(envelopeId);
	const hour = hourOf(nowSeconds);
	const duplicate = entry.confirmed.has(hash) || entry.unsettled.has(hash);
	if (!duplicate) entry.unsettled.set(hash, hour);
	entry.givenUp.delete(hash);
	entry.inFlight.set(staticData, duplicate ? undefined : hash);
	writeToRequestsInFlight(entry);

	return {
		duplicate,
		settle(started: boolean) {
			entry.inFlight.delete(staticData);
			if (duplicate) return;
			entry.unsettled.delete(hash);
			if (!started) {
				entry.confirmed.delete(hash);
				entry.givenUp.set(hash, hour);
			} else if (entry.confirmed.has(hash)) {
				return; // read back from this request's own save, and written since
			} else {
				const newestHour = hourOf(entry.usedAt);
				entry.confirmed = addInOrder(
					entry.confirmed,
					new Map([[hash, hour]]),
					newestHour,
					nowSeconds,
				);
				if (entry.inFlight.size === 0 && hour >= newestHour) {
					// nobody to write to: what this request stored is what would be written
					entry.written = withEnvelope(entry.written, hash, hour);
					return;
				}
			}
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
	takeInStored(entry, staticData, nowSeconds);
	if (!entry.inFlight.has(staticData)) entry.inFlight.set(staticData, undefined);
	writeToRequestsInFlight(entry);
	return () => entry.inFlight.delete(staticData);
}
