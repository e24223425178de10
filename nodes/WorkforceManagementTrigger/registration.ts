import type { IHookFunctions, IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describesWorkflow, endpointDescription } from '../shared/endpointDescription';
import * as webhookEndpoints from '../shared/webhookEndpoints';
import { isValidTolerance, toleranceSeconds, triggerOptions } from './options';
import { DEFAULT_TOLERANCE_SECONDS } from './signature';

/** What the trigger remembers about its registration, in the node's static data. */
export interface StoredRegistration {
	endpointId?: string;
	/** Sealed (secret.ts); a plain `whsec_…` only in static data written before sealing. */
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

/**
 * Whether an endpoint is this workflow's: its description names the workflow id. An endpoint id
 * in static data proves nothing (static data is copied with a duplicated or imported workflow,
 * and the public API accepts it), so nothing is changed or deleted by id without this.
 */
export function isOwnEndpoint(endpoint: RemoteEndpoint, workflowId: string): boolean {
	return describesWorkflow(endpoint.description, workflowId);
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
	return endpoints.filter(
		(endpoint) => endpoint.url === url && isOwnEndpoint(endpoint, workflowId),
	);
}

/**
 * The trigger's side of the webhook endpoint API: what it wants registered, and the calls whose
 * failures mean something to activation (an endpoint already gone, an http:// webhook URL).
 */

function hasHttpCode(error: unknown, code: string): boolean {
	return (error as { httpCode?: unknown } | null)?.httpCode === code;
}

/**
 * Any other failure goes on as it came. n8n's lint wants what a catch block throws to be a node
 * error; the transport's already are, and NodeApiError's constructor hands those back unchanged.
 */
type TriggerContext = IHookFunctions | IWebhookFunctions;

function rethrow(this: TriggerContext, error: unknown): never {
	throw new NodeApiError(this.getNode(), error as JsonObject);
}

/** The result of `call`, or `undefined` when the API answers 404. */
async function unlessGone<T>(this: TriggerContext, call: () => Promise<T>): Promise<T | undefined> {
	try {
		return await call();
	} catch (error) {
		if (hasHttpCode(error, '404')) return undefined;
		return rethrow.call(this, error);
	}
}

/** The URL and events the node's parameters ask for, checked. */
export function wantedRegistration(this: IHookFunctions): WantedRegistration {
	const events = this.getNodeParameter('events', []) as string[];
	if (events.length === 0) {
		throw new NodeOperationError(
			this.getNode(),
			'Choose at least one event in "Event Names or IDs"',
			{
				description: 'Pick the event types that should start this workflow, or All Events.',
			},
		);
	}
	const options = triggerOptions(this);
	if (!isValidTolerance(toleranceSeconds(options))) {
		throw new NodeOperationError(
			this.getNode(),
			`"Signature Tolerance (Seconds)" must be a positive number of seconds, not ${String(options.signatureToleranceSeconds)}`,
			{ description: `The API recommends ${DEFAULT_TOLERANCE_SECONDS} seconds.` },
		);
	}
	return { url: this.getNodeWebhookUrl('default') as string, events: normalizeEvents(events) };
}

/** The endpoint with this id, or `undefined` when it no longer exists. */
export async function fetchEndpoint(
	this: TriggerContext,
	endpointId: string,
): Promise<RemoteEndpoint | undefined> {
	return (await unlessGone.call(this, async () => webhookEndpoints.get.call(this, endpointId))) as
		| RemoteEndpoint
		| undefined;
}

/** Deletes an endpoint; one that is already gone counts as deleted. */
export async function deleteEndpoint(this: IHookFunctions, endpointId: string): Promise<void> {
	const deleted = await unlessGone.call(this, async () => {
		await webhookEndpoints.delete.call(this, endpointId);
		return true;
	});
	if (deleted === undefined)
		this.logger.debug(`Webhook endpoint ${endpointId} was already deleted`);
}

/**
 * Deletes the endpoints this trigger registered earlier but no longer knows (its static data was
 * lost, or n8n stopped before a test registration was removed), so none is left behind.
 */
export async function deleteOwnEndpoints(this: IHookFunctions, url: string): Promise<void> {
	const endpoints = (await webhookEndpoints.list.call(this)) as unknown as RemoteEndpoint[];
	for (const endpoint of findOwnEndpoints(endpoints, url, this.getWorkflow().id ?? '')) {
		await deleteEndpoint.call(this, endpoint.id);
	}
}

export async function createEndpoint(
	this: IHookFunctions,
	wanted: WantedRegistration,
): Promise<{ id: string; secret: string }> {
	try {
		return (await webhookEndpoints.create.call(this, {
			url: wanted.url,
			events: wanted.events,
			description: endpointDescription(this.getWorkflow().id ?? '', this.getWorkflow().name ?? ''),
		})) as { id: string; secret: string };
	} catch (error) {
		if (hasHttpCode(error, '400') && !wanted.url.startsWith('https://')) {
			throw new NodeOperationError(
				this.getNode(),
				`The Workforce Management API only delivers to HTTPS addresses, and n8n's webhook URL is ${wanted.url}`,
				{
					description:
						"Set n8n's WEBHOOK_URL environment variable (N8N_WEBHOOK_URL in recent versions) to the public HTTPS address of this n8n instance and restart it, or expose n8n through an HTTPS tunnel, then activate the workflow again.",
				},
			);
		}
		return rethrow.call(this, error);
	}
}
