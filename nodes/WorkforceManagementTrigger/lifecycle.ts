import { describesWorkflow } from '../shared/endpointDescription';

/** What the trigger remembers about its registration, in the node's static data. */
export interface StoredRegistration {
	endpointId?: string;
	/** Sealed (sealedSecret.ts); a plain `whsec_…` only in static data written before sealing. */
	secret?: string;
	url?: string;
	events?: string[];
}

/** The fields of a webhook endpoint (as the API returns it) that reconciliation looks at. */
export interface RemoteEndpoint {
	id: string;
	url: string;
	description: string | null;
	events: string[];
	enabled: boolean;
	/** `whsec_…` and the last four characters of the current signing secret. */
	secret_preview?: string;
}

export interface WantedRegistration {
	url: string;
	events: string[];
}

/**
 * - `keep`: the stored endpoint matches and delivers.
 * - `reenable`: it matches but was disabled (e.g. auto-disabled after failed deliveries).
 * - `rekey`: it matches and is enabled, but the stored secret is lost or was rolled by someone
 *   else (the old one signs for 24 hours only): roll the secret and store the new one.
 * - `replace`: an endpoint of ours exists but cannot serve as is (other URL or events, or
 *   disabled with an unknown secret): delete it, then create a new one.
 * - `create`: nothing usable exists remotely: create one.
 */
export type ReconcileAction = 'keep' | 'reenable' | 'rekey' | 'replace' | 'create';

export const ALL_EVENTS = '*';

/** Sorted, without duplicates; "All Events" absorbs every other choice. */
export function normalizeEvents(events: string[]): string[] {
	if (events.includes(ALL_EVENTS)) return [ALL_EVENTS];
	return [...new Set(events)].sort();
}

export function sameEvents(left: string[], right: string[]): boolean {
	const a = normalizeEvents(left);
	const b = normalizeEvents(right);
	return a.length === b.length && a.every((event, index) => event === b[index]);
}

/**
 * Whether a secret is the one the API currently signs with, judged by the masked preview the API
 * shows. Without a readable preview there is no evidence of a roll, so the secret is trusted.
 */
export function secretMatchesPreview(secret: string, preview: string | undefined): boolean {
	const visibleTail = /(?:…|\.\.\.)([^.…]+)$/.exec(preview ?? '')?.[1];
	return visibleTail === undefined || secret.endsWith(visibleTail);
}

/**
 * Decides what activation must do, given what static data holds and what the API returned for
 * the stored endpoint id (`undefined` when there is no id or the endpoint is gone).
 */
export function reconcile(
	stored: StoredRegistration,
	remote: RemoteEndpoint | undefined,
	wanted: WantedRegistration,
): ReconcileAction {
	if (remote === undefined) return 'create';
	if (remote.url !== wanted.url || !sameEvents(remote.events, wanted.events)) return 'replace';
	const secretCurrent =
		stored.secret !== undefined &&
		stored.secret !== '' &&
		secretMatchesPreview(stored.secret, remote.secret_preview);
	if (!secretCurrent) return remote.enabled ? 'rekey' : 'replace';
	if (!remote.enabled) return 'reenable';
	return 'keep';
}

export { endpointDescription } from '../shared/endpointDescription';

/**
 * Endpoints this trigger created earlier: same webhook URL (which carries the node's unique
 * webhook id and, for "Listen for test event", the `/webhook-test/` path) and a description naming
 * the same workflow id (a renamed workflow or node still finds its endpoints). Anything else in
 * the account is never touched.
 */
export function findOwnEndpoints<T extends RemoteEndpoint>(
	endpoints: T[],
	url: string,
	workflowId: string,
): T[] {
	return endpoints.filter(
		(endpoint) => endpoint.url === url && describesWorkflow(endpoint.description, workflowId),
	);
}
