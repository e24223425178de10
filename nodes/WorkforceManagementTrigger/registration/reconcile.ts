/**
 * Which endpoints are this trigger's, and what activation does with the one static data names:
 * pure decisions on what the API returned (the calls are in endpointCalls.ts).
 */
import { describesWorkflow, type RetirementMark, retirementMarkOf } from '../../shared/webhooks';
import { secretMatchesPreview } from '../secrets/secretStore';
import type { StoredRegistration } from '../staticData';

/** The fields of a webhook endpoint (as the API returns it) that reconciliation looks at. */
export interface RemoteEndpoint {
	id: string;
	url: string;
	description: string | null;
	events: string[];
	enabled: boolean;
	/** `whsec_…` and the last four characters of the current signing secret. */
	secret_preview?: string;
	/** Why the API disabled it, when it did. */
	disabled_reason?: string | null;
}

export interface WantedRegistration {
	url: string;
	events: string[];
	/** endpointDescription.ts: the workflow's name and id. */
	description: string;
}

/** What activation changes on an endpoint it adopts, in one PATCH. */
export interface EndpointChanges {
	events?: string[];
	enabled?: true;
	/** Claims an endpoint whose deletion is pending (retirement.ts). */
	description?: string;
}

/**
 * - `create`: nothing usable of this registration exists remotely.
 * - `adopt`: the endpoint delivers to this trigger's URL: bring its events and state in line in
 *   place (its secret and the API's queued retries stay), and roll its secret when the stored one
 *   is lost or is not the one the API signs with (the old one signs for 24 hours only). A
 *   deletion pending on it (retirement.ts) is claimed by the same PATCH.
 */
export type Reconciliation =
	| { kind: 'create' }
	| {
			kind: 'adopt';
			changes: EndpointChanges;
			roll: boolean;
			/** The deletion pending on the endpoint (a deactivation's mark), if one is. */
			pendingDeletion?: RetirementMark;
	  };

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
 * Decides what activation must do, given what static data holds and what the API returned for
 * the stored endpoint id (`undefined` when there is no id or the endpoint is gone). An endpoint
 * that delivers elsewhere is never changed: it may be another n8n's (a staging copy's original).
 */
export function reconcile(
	stored: StoredRegistration,
	remote: RemoteEndpoint | undefined,
	wanted: WantedRegistration,
): Reconciliation {
	if (remote === undefined || remote.url !== wanted.url) return { kind: 'create' };
	const changes: EndpointChanges = {};
	if (!sameEvents(remote.events, wanted.events)) changes.events = wanted.events;
	if (!remote.enabled) changes.enabled = true;
	const pendingDeletion = retirementMarkOf(remote.description);
	if (pendingDeletion !== undefined) changes.description = wanted.description;
	const secretCurrent =
		stored.secret !== undefined &&
		stored.secret !== '' &&
		secretMatchesPreview(stored.secret, remote.secret_preview);
	return {
		kind: 'adopt',
		changes,
		roll: !secretCurrent,
		...(pendingDeletion === undefined ? {} : { pendingDeletion }),
	};
}

/**
 * Whether an endpoint is this trigger's: it delivers to this trigger's webhook URL (which carries
 * the node's webhook id, and this n8n's WEBHOOK_URL) and its description names the workflow. An
 * endpoint id in static data proves nothing: static data is copied with a duplicated or imported
 * workflow, and a workflow id is not unique across n8n instances (a staging import keeps it).
 */
export function isOwnEndpoint(endpoint: RemoteEndpoint, workflowId: string, url: string): boolean {
	return endpoint.url === url && describesWorkflow(endpoint.description, workflowId);
}

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
	return endpoints.filter((endpoint) => isOwnEndpoint(endpoint, workflowId, url));
}

/**
 * Endpoints whose description names this workflow but which deliver elsewhere: another n8n's (a
 * staging or production copy sharing the workflow id), or this workflow's from before n8n's
 * webhook URL changed. Never touched; the operator is told.
 */
export function findEndpointsElsewhere<T extends RemoteEndpoint>(
	endpoints: T[],
	url: string,
	workflowId: string,
): T[] {
	return endpoints.filter(
		(endpoint) => endpoint.url !== url && describesWorkflow(endpoint.description, workflowId),
	);
}
