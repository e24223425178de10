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

/** How long events the API's retry missed are redelivered, one round after another, until delivered. */
const REDELIVERY_DEADLINE_MS = 180_000;
const PAUSE_BETWEEN_ROUNDS_MS = 3_000;

/**
 * Lets the API's retries bring the events of `eventIds` in, as a user would: the sandbox's clock
 * moves `advanceSeconds` ahead and the retries then due run. An event whose retry failed too is
 * redelivered, as a user would ask the API (with `apiKey`, the one in use), round after round until
 * a delivery of it is answered 2xx or REDELIVERY_DEADLINE_MS have passed: on a loaded machine one
 * attempt can fall into n8n's start (404: its webhook not registered yet) and the next meet the
 * secret being rolled (401), so no single attempt is counted on. Waiting for the API's next retry
 * instead (5 min later) would have the sandbox sign past the trigger's tolerance.
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
	let deliveries = ofTheEvents(await world.control.settleDeliveries());
	const deadline = Date.now() + REDELIVERY_DEADLINE_MS;
	for (let round = 1; undelivered(deliveries).length > 0 && Date.now() < deadline; round++) {
		if (round > 1) await new Promise((wake) => setTimeout(wake, PAUSE_BETWEEN_ROUNDS_MS));
		const late = undelivered(deliveries);
		for (const delivery of late) {
			await world.control.api(apiKey, 'POST', `/webhook-deliveries/${delivery.id}/redeliver`);
		}
		const attempts = (eventId: string) =>
			deliveries.filter((delivery) => delivery.event_id === eventId);
		console.log(
			`redelivery round ${round}: ${late.length} event(s) not delivered yet (${late.map((delivery) => attempts(delivery.event_id).map((attempt) => attempt.last_response_status ?? attempt.last_error).join(', ')).join('; ')})`,
		);
		deliveries = ofTheEvents(await world.control.settleDeliveries());
	}
	return { undelivered: undelivered(deliveries).map(({ event_id }) => event_id), deliveries };
}
