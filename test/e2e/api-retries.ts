import type { E2eWorld } from '../../harness/world';
import type { WebhookDelivery } from '../../harness/sandbox-control';

/**
 * How far the sandbox's clock moves to bring the API's first retry due (60 s after a failed
 * attempt): well inside the 300 s the trigger allows a signature's time ahead of its own clock.
 */
export const FIRST_RETRY_DUE_SECONDS = 90;

export interface RetriesOutcome {
	/** The events no delivery has reached n8n with, even after a redelivery. */
	undelivered: string[];
	/** Every delivery of the events, the redeliveries included. */
	deliveries: WebhookDelivery[];
}

/**
 * Lets the API's retries bring the events of `eventIds` in, as a user would: the sandbox's clock
 * moves `advanceSeconds` ahead, the retries then due run, and an event whose retry failed too (it
 * fell into n8n's start or a republish on a loaded machine, or met a secret being rolled) is
 * redelivered at once, as a user would ask the API (with `apiKey`, the one in use). Waiting for the API's next retry instead (5
 * min later) would have the sandbox sign past the trigger's tolerance.
 */
export async function retriesBroughtIn(
	world: E2eWorld,
	eventIds: string[],
	{ advanceSeconds = FIRST_RETRY_DUE_SECONDS, apiKey = world.apiKey } = {},
): Promise<RetriesOutcome> {
	const ofTheEvents = (deliveries: WebhookDelivery[]) =>
		deliveries.filter((delivery) => eventIds.includes(delivery.event_id));
	const undelivered = (deliveries: WebhookDelivery[]) => {
		const delivered = new Set(
			deliveries.filter(({ status }) => status === 'delivered').map(({ event_id }) => event_id),
		);
		return deliveries.filter(
			(delivery) => delivery.redelivery_of === null && !delivered.has(delivery.event_id),
		);
	};
	await world.control.advanceClock(advanceSeconds);
	const retriedLate = undelivered(ofTheEvents(await world.control.settleDeliveries()));
	for (const delivery of retriedLate) {
		await world.control.api(apiKey, 'POST', `/webhook-deliveries/${delivery.id}/redeliver`);
	}
	if (retriedLate.length > 0) {
		console.log(
			`${retriedLate.length} event(s) whose retry failed too, redelivered: ${retriedLate.map((delivery) => `${delivery.attempts} attempts, last ${delivery.last_response_status ?? delivery.last_error}`).join('; ')}`,
		);
	}
	const deliveries = ofTheEvents(await world.control.settleDeliveries());
	return { undelivered: undelivered(deliveries).map(({ event_id }) => event_id), deliveries };
}
