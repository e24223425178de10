import type { IHookFunctions, ITriggerFunctions, IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	describesWorkflow,
	endpointDescription,
	retirementToken,
} from '../../shared/endpointDescription';
import * as webhookEndpoints from '../../shared/webhookEndpoints';
import { operatorLog } from '../operatorLog';
import {
	DEFAULT_TOLERANCE_SECONDS,
	isValidTolerance,
	toleranceSeconds,
	triggerOptions,
} from '../options';
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
 *   is lost or is not the one the API signs with (the old one signs for 24 hours only).
 */
export type Reconciliation =
	| { kind: 'create' }
	| { kind: 'adopt'; changes: EndpointChanges; roll: boolean };

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
	if (retirementToken(remote.description) !== undefined) changes.description = wanted.description;
	const secretCurrent =
		stored.secret !== undefined &&
		stored.secret !== '' &&
		secretMatchesPreview(stored.secret, remote.secret_preview);
	return { kind: 'adopt', changes, roll: !secretCurrent };
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
type TriggerContext = IHookFunctions | IWebhookFunctions | ITriggerFunctions;

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
	const workflow = this.getWorkflow();
	return {
		url: this.getNodeWebhookUrl('default') as string,
		events: normalizeEvents(events),
		description: endpointDescription(workflow.id ?? '', workflow.name ?? ''),
	};
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
	for (const endpoint of await listOwnEndpoints.call(this, url)) {
		await deleteEndpoint.call(this, endpoint.id);
	}
}

/** This trigger's endpoints at `url`; those of this workflow elsewhere are named in the log. */
export async function listOwnEndpoints(
	this: IHookFunctions,
	url: string,
): Promise<RemoteEndpoint[]> {
	const endpoints = (await webhookEndpoints.list.call(this)) as unknown as RemoteEndpoint[];
	const workflowId = this.getWorkflow().id ?? '';
	for (const endpoint of findEndpointsElsewhere(endpoints, url, workflowId)) {
		warnOfEndpointElsewhere.call(this, endpoint, url);
	}
	return findOwnEndpoints(endpoints, url, workflowId);
}

/** Names an endpoint of this workflow that delivers to another URL, and how to remove it. */
export function warnOfEndpointElsewhere(
	this: TriggerContext,
	endpoint: RemoteEndpoint,
	url: string,
): void {
	this.logger.warn(
		`Webhook endpoint ${endpoint.id} ("${endpoint.description ?? ''}") delivers to ${endpoint.url}, not to this trigger's ${url}, so it is left alone: it may be another n8n's copy of this workflow (production or staging). If no running n8n uses it (an old WEBHOOK_URL, a restored backup), delete it with the Workforce Management node: Webhook Endpoint → Delete.`,
		operatorLog(this).meta,
	);
}

export async function createEndpoint(
	this: IHookFunctions,
	wanted: WantedRegistration,
): Promise<{ id: string; secret: string }> {
	try {
		return (await webhookEndpoints.create.call(this, {
			url: wanted.url,
			events: wanted.events,
			description: wanted.description,
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
