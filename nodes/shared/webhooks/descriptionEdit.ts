/**
 * The one way the package writes the description of a webhook endpoint it shares with other n8n
 * processes (description.ts): read it right before the write, change one field of what was
 * read, write it back. The API has no conditional writes, so another writer's change that lands
 * between this read's answer and this write is lost; each rule that depends on the description
 * says how it survives that (docs/webhooks.md, "Coordination rules").
 */
import type { WorkforceApiContext } from '../transport';
import * as webhookEndpoints from './endpoints';

/**
 * How far apart the clocks of two n8n processes may be: every rule that compares a time written by
 * one process with another's clock (a recovery's claim, a deletion's time) allows this much.
 */
export const CLOCK_SKEW_MARGIN_SECONDS = 3;

export async function currentDescription(
	this: WorkforceApiContext,
	endpointId: string,
): Promise<string | null> {
	const endpoint = await webhookEndpoints.get.call(this, endpointId);
	return (endpoint.description as string | null | undefined) ?? null;
}

/**
 * Applies `edit` to the description as the API holds it now and writes the result; `edit` answers
 * `undefined` to write nothing. Returns what was written, or `undefined`.
 */
export async function editDescription(
	this: WorkforceApiContext,
	endpointId: string,
	edit: (current: string | null) => string | null | undefined,
): Promise<string | null | undefined> {
	const current = await currentDescription.call(this, endpointId);
	const edited = edit(current);
	if (edited === undefined || edited === current) return undefined;
	await webhookEndpoints.update.call(this, endpointId, { description: edited || null });
	return edited || null;
}
