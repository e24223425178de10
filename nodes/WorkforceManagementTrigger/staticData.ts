/**
 * What the trigger keeps in the node's static data: its registration at the API and, beside it,
 * the duplicate memory. n8n saves static data with the workflow, shows it in its REST and public
 * API and copies it into every execution record, so nothing in it is in the clear (the secret is
 * sealed). What a process keeps only in its memory is in processMemory.ts.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { DuplicateMemoryStaticData } from './duplicates/envelopeMemory';

/** What the trigger remembers about its registration. */
export interface StoredRegistration {
	endpointId?: string;
	/** Sealed (verification/sealing.ts); a plain `whsec_…` only in static data written before sealing. */
	secret?: string;
	url?: string;
	events?: string[];
}

/** The node's static data: the registration plus the envelope ids recently accepted. */
export type TriggerStaticData = StoredRegistration & DuplicateMemoryStaticData;

export function triggerStaticData(context: IHookFunctions | IWebhookFunctions): TriggerStaticData {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}
