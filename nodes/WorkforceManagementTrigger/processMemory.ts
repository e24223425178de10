/**
 * Everything the trigger keeps in one n8n process's memory, and nowhere else: what is shared
 * between processes and survives a restart is in the node's static data (staticData.ts). Each
 * memory says what it holds, its bound (no traffic can grow it without limit) and why it is not in
 * static data. The code that reads and writes each one is named with it.
 */
import { BoundedMap } from './boundedMap';
import type {
	DuplicateMemoryStaticData,
	EnvelopeMemory,
	HourEncodings,
	StoredEnvelopeMemory,
} from './duplicates/envelopeMemory';
import type { TriggerStaticData } from './staticData';

/**
 * How many endpoints, secrets or triggers each per-process cache below keeps, so that no traffic
 * can grow it. Past it, the entry written longest ago is dropped and costs its first lookup again
 * (a credential load, a look at the endpoint, a log line).
 */
export const PER_PROCESS_ENTRIES = 256;

/**
 * Signing secrets in the clear, by their sealed value (unique per seal, random IV; never keyed by
 * anything in the clear). At most `PER_PROCESS_ENTRIES`; writing a new one drops the one written
 * longest ago. Per process because a secret in the clear is never stored; it spares each delivery a
 * credential load (a database read in n8n). verification/secretStore.ts.
 */
export const openedSecrets = new BoundedMap<string, string>(PER_PROCESS_ENTRIES);

/** Why a sealed secret gave no secret in the clear. */
export type UnopenedSecret = 'unusable' | 'credential_unavailable';

/**
 * Sealed values that did not open, why, and when that was found: forged traffic against an unusable
 * secret must not cost a credential load each. At most `PER_PROCESS_ENTRIES`, the one written
 * longest ago dropped; a verdict counts for `UNUSABLE_VERDICT_SECONDS`. Per process: a cache of a
 * judgement any process can make again. verification/secretStore.ts.
 */
export const unopenedSecrets = new BoundedMap<
	string,
	{ failure: UnopenedSecret; atSeconds: number }
>(PER_PROCESS_ENTRIES);

export interface HeldSecret {
	secret: string;
	sealed: string;
}

/** What this process did to repair one endpoint's stored secret. */
export interface SecretRepairMemory {
	lookedAt?: number;
	/** Secrets this process rolled, oldest first: the API shows which one it signs with. */
	rolled: HeldSecret[];
	/** What this process last stored, and the values it stored it over. */
	stored?: HeldSecret;
	replaced: string[];
}

/** How many rolled secrets and replaced values a repair memory keeps, the newest. */
export const MAX_HELD_SECRETS = 8;

/**
 * Secret repairs, by endpoint id: when this process last looked at the endpoint, and the secrets it
 * rolled and stored. At most `PER_PROCESS_ENTRIES` endpoints (the one written longest ago dropped),
 * each holding at most `MAX_HELD_SECRETS` of each. Per process because the rolled secrets are in
 * the clear, and because the look at the endpoint is rate-limited per process.
 * verification/secretRepair.ts.
 */
export const secretRepairs = new BoundedMap<string, SecretRepairMemory>(PER_PROCESS_ENTRIES);

/**
 * When a refusal for want of a secret (`no_secret`) was last logged, by workflow and node: at most
 * once a minute. At most `PER_PROCESS_ENTRIES`, the one written longest ago dropped. Per process
 * because it limits this process's log lines. verification/deliveryVerification.ts.
 */
export const noSecretReportedAt = new BoundedMap<string, number>(PER_PROCESS_ENTRIES);

/** What a `delete()` took out of static data, kept for a republish to take back. */
export interface RetiredRegistration {
	registration: TriggerStaticData;
	/** The deletion of its endpoints, once under way: a reclaim waits for it to end. */
	deletion?: Promise<void>;
}

/**
 * Registrations `delete()` retired, by workflow, node and webhook URL. An entry lives from the
 * `delete()` until the grace period's deletion has ended or an activation reclaimed it:
 * `TRIGGER_DELAYS.republishGraceSeconds` and a few API calls, so it holds the deactivations of
 * the last seconds. Per process because `delete()` clears static data at once (a deactivated
 * workflow keeps no secret and no memory); whether the endpoint was claimed is read from the API,
 * so other processes need nothing of it. registration/retirement.ts.
 */
export const retiredRegistrations = new Map<string, RetiredRegistration>();

/** The duplicate memory of one registration (a trigger's production webhook or test listener). */
export interface RegistrationMemory {
	accepted: EnvelopeMemory;
	/** Ids whose execution did not start: a stored copy of one of them does not count. */
	givenUp: EnvelopeMemory;
	/** The static data of requests n8n has not answered yet; any of them may be saved last. */
	inFlight: Set<DuplicateMemoryStaticData>;
	/** The stored form last written from `accepted`. */
	written: StoredEnvelopeMemory;
	encodings: HourEncodings;
	usedAt: number;
}

/** The bound of {@link acceptedByRegistration}, applied whenever a registration is used. */
export const ACCEPTED_ENVELOPES_LIMITS = {
	maxRegistrations: PER_PROCESS_ENTRIES,
	idleSeconds: 3600,
};

/**
 * The envelope ids this process accepted, by registration, least recently used first, with the
 * static data of the requests in flight they are written into. At most
 * `ACCEPTED_ENVELOPES_LIMITS.maxRegistrations` registrations, one idle for
 * `ACCEPTED_ENVELOPES_LIMITS.idleSeconds` dropped; each holds at most
 * `ENVELOPE_MEMORY_LIMITS.maxEntries` ids. Per process because it bridges the requests this process
 * has in flight: n8n loads static data for each request and saves it whole, the last save winning,
 * so every id accepted here goes into each of them. duplicates/acceptedEnvelopes.ts.
 */
export const acceptedByRegistration = new Map<string, RegistrationMemory>();

export type BackgroundWork = 'retirement' | 'recovery' | 'endpointCheck';

/**
 * The delayed work this process started and that has not ended yet, by its promise. An entry is
 * removed when its work ends, so it holds the retirements and recoveries under way. Per process
 * because it is this process's promises (tests wait for them). background.ts.
 */
export const backgroundWork = new Map<Promise<void>, BackgroundWork>();
