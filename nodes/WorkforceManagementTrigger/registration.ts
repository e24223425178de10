/**
 * The trigger's side of the webhook endpoint API: what it wants registered, and the calls whose
 * failures mean something to activation (an endpoint already gone, an http:// webhook URL).
 */
import type { IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as webhookEndpoints from '../shared/webhookEndpoints';
import {
	endpointDescription,
	findOwnEndpoints,
	normalizeEvents,
	type RemoteEndpoint,
	type WantedRegistration,
} from './lifecycle';
import { DEFAULT_TOLERANCE_SECONDS } from './signature';

export interface TriggerOptions {
	ignoreDuplicates?: boolean;
	ignoreTestDeliveries?: boolean;
	signatureToleranceSeconds?: number;
}

function hasHttpCode(error: unknown, code: string): boolean {
	return (error as { httpCode?: unknown } | null)?.httpCode === code;
}

/**
 * Any other failure goes on as it came. n8n's lint wants what a catch block throws to be a node
 * error; the transport's already are, and NodeApiError's constructor hands those back unchanged.
 */
function rethrow(this: IHookFunctions, error: unknown): never {
	throw new NodeApiError(this.getNode(), error as JsonObject);
}

/** The result of `call`, or `undefined` when the API answers 404. */
async function unlessGone<T>(this: IHookFunctions, call: () => Promise<T>): Promise<T | undefined> {
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
	const { signatureToleranceSeconds } = this.getNodeParameter('options', {}) as TriggerOptions;
	if (
		signatureToleranceSeconds !== undefined &&
		!(Number.isFinite(signatureToleranceSeconds) && signatureToleranceSeconds > 0)
	) {
		throw new NodeOperationError(
			this.getNode(),
			`"Signature Tolerance (Seconds)" must be a positive number of seconds, not ${signatureToleranceSeconds}`,
			{ description: `The API recommends ${DEFAULT_TOLERANCE_SECONDS} seconds.` },
		);
	}
	return { url: this.getNodeWebhookUrl('default') as string, events: normalizeEvents(events) };
}

/** The endpoint with this id, or `undefined` when it no longer exists. */
export async function fetchEndpoint(
	this: IHookFunctions,
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
