/**
 * The trigger's side of the webhook endpoint API, the one path by which its code calls it: what it
 * wants registered, and the calls whose failures mean something to activation (an endpoint already
 * gone, an http:// webhook URL). A description's claim and mark are written through the shared
 * ledger (nodes/shared/webhooks).
 */
import type { IDataObject, IHookFunctions, IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { endpointDescription, webhookEndpoints } from '../../shared/webhooks';
import { operatorLog, type TriggerNodeContext } from '../operatorLog';
import {
	DEFAULT_TOLERANCE_SECONDS,
	isValidTolerance,
	toleranceSeconds,
	triggerOptions,
} from '../options';
import {
	findEndpointsElsewhere,
	findOwnEndpoints,
	normalizeEvents,
	type RemoteEndpoint,
	type WantedRegistration,
} from './reconcile';

function hasHttpCode(error: unknown, code: string): boolean {
	return (error as { httpCode?: unknown } | null)?.httpCode === code;
}

/**
 * Any other failure goes on as it came. n8n's lint wants what a catch block throws to be a node
 * error; the transport's already are, and NodeApiError's constructor hands those back unchanged.
 */
function rethrow(this: TriggerNodeContext, error: unknown): never {
	throw new NodeApiError(this.getNode(), error as JsonObject);
}

/** The result of `call`, or `undefined` when the API answers 404. */
async function unlessGone<T>(
	this: TriggerNodeContext,
	call: () => Promise<T>,
): Promise<T | undefined> {
	try {
		return await call();
	} catch (error) {
		if (hasHttpCode(error, '404')) return undefined;
		return rethrow.call(this, error);
	}
}

/** This trigger's webhook URL: production's, or the test listener's. */
export function webhookUrlOf(context: IHookFunctions | IWebhookFunctions): string {
	return context.getNodeWebhookUrl('default') as string;
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
		url: webhookUrlOf(this),
		events: normalizeEvents(events),
		description: endpointDescription(workflow.id ?? '', workflow.name ?? ''),
	};
}

/** The endpoint with this id, or `undefined` when it no longer exists. */
export async function fetchEndpoint(
	this: TriggerNodeContext,
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
	this: TriggerNodeContext,
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

/** Replaces the endpoint's signing secret; the previous one keeps signing for 24 hours. */
export async function rollEndpointSecret(
	this: TriggerNodeContext,
	endpointId: string,
): Promise<string> {
	return await webhookEndpoints.rollSecret.call(this, endpointId);
}

/** Changes the endpoint in place, in one PATCH. */
export async function patchEndpoint(
	this: TriggerNodeContext,
	endpointId: string,
	changes: IDataObject,
): Promise<void> {
	await webhookEndpoints.update.call(this, endpointId, changes);
}
