/**
 * Events the API gave up delivering to an endpoint (retries exhausted, or the endpoint disabled):
 * finding them and redelivering each once. The trigger does it when n8n runs its activation; the
 * action node's Webhook Endpoint → Recover Missed Events does it on a schedule, for n8n lines that
 * run no trigger method at start-up. recoverySelection.ts decides which deliveries to redeliver.
 */
import * as webhookDeliveries from './webhookDeliveries';
import type { WorkforceApiContext } from './transport';

/**
 * The endpoint's dead deliveries, and its latest deliveries of any status, which show the
 * redeliveries already made. One page each: the API does not document paging for this list.
 */
export async function listRecoveryDeliveries(
	this: WorkforceApiContext,
	endpointId: string,
): Promise<unknown[]> {
	const dead = await webhookDeliveries.listPage.call(this, undefined, {
		endpoint_id: endpointId,
		status: 'dead',
	});
	const latest = await webhookDeliveries.listPage.call(this, undefined, {
		endpoint_id: endpointId,
	});
	return [...dead.data, ...latest.data];
}

export interface RedeliveryOutcome {
	redelivered: number;
	/** The first redelivery that failed, after which the rest were not tried. */
	failed?: { deliveryId: string; error: Error };
}

/** Redelivers in order; stops at the first failure, so an API that is down costs one wait. */
export async function redeliverInOrder(
	this: WorkforceApiContext,
	deliveryIds: string[],
): Promise<RedeliveryOutcome> {
	for (const [done, deliveryId] of deliveryIds.entries()) {
		try {
			await webhookDeliveries.redeliver.call(this, deliveryId);
		} catch (error) {
			return { redelivered: done, failed: { deliveryId, error: error as Error } };
		}
	}
	return { redelivered: deliveryIds.length };
}
