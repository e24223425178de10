/**
 * What the trigger keeps in the node's static data: its registration at the API and, beside it,
 * the duplicate memory. n8n saves static data with the workflow, shows it in its REST and public
 * API and copies it into every execution record, so nothing in it is in the clear (the secret is
 * sealed). What a process keeps only in its memory is declared, with its bound, in the module
 * that uses it.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** What the trigger remembers about its registration. */
export interface StoredRegistration {
	endpointId?: string;
	/** Sealed (secrets/sealing.ts); a plain `whsec_…` only in static data written before sealing. */
	secret?: string;
	url?: string;
	events?: string[];
}

/** The duplicate memory as stored: per hour, its ids' short hashes (duplicates/envelopeMemory.ts). */
export type StoredEnvelopeMemory = Record<string, string>;

/** The part of the trigger's static data that holds the duplicate memory. */
export interface DuplicateMemoryStaticData {
	seenEnvelopes?: StoredEnvelopeMemory;
	/** The first format, read once and removed. */
	recentEnvelopes?: unknown;
}

/** The node's static data: the registration plus the envelope ids recently accepted. */
export type TriggerStaticData = StoredRegistration & DuplicateMemoryStaticData;

export function triggerStaticData(context: IHookFunctions | IWebhookFunctions): TriggerStaticData {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

/** What static data keeps of the endpoint; the duplicate memory (`seenEnvelopes`) sits beside it. */
const ENDPOINT_FIELDS = ['endpointId', 'secret', 'url', 'events'] as const satisfies ReadonlyArray<
	keyof StoredRegistration
>;

/** Removes the endpoint from static data; the duplicate memory stays. */
export function forgetRegistration(staticData: TriggerStaticData): void {
	for (const field of ENDPOINT_FIELDS) delete staticData[field];
}
