/**
 * Which of an endpoint's deliveries to redeliver when the trigger starts: the events the API gave
 * up on (every listed delivery of the event `dead`), each once, through its newest delivery that
 * nobody redelivered yet, within the bounds. Pure: the caller lists the deliveries and redelivers.
 */

/** The fields of a webhook delivery (as the API lists it) that the selection reads. */
export interface ListedDelivery {
	id: string;
	endpoint_id: string;
	event_id: string;
	status: string;
	redelivery_of: string | null;
	created_at: string;
}

export interface RecoveryBounds {
	/** Events first delivered longer ago than this are left alone (stale, and past the API's retention). */
	maxAgeHours: number;
	/** At most this many events per start, the newest; one page of the deliveries list. */
	maxEvents: number;
}

export const RECOVERY_BOUNDS: RecoveryBounds = { maxAgeHours: 72, maxEvents: 100 };

export interface RecoveryInput {
	endpointId: string;
	nowMs: number;
	/** Whether the trigger already ran the event with this envelope id (its duplicate memory). */
	isKnownEnvelope: (eventId: string) => boolean;
	bounds?: RecoveryBounds;
}

export interface RecoveryPlan {
	/** One delivery per event, oldest event first. */
	redeliver: ListedDelivery[];
	/** Events the duplicate memory holds: their answer was lost, not the run. */
	alreadyRun: number;
	tooOld: number;
	overLimit: number;
}

const HOUR_MS = 3_600_000;

function isListedDelivery(value: unknown): value is ListedDelivery {
	const delivery = value as Partial<ListedDelivery> | null;
	return (
		typeof delivery?.id === 'string' &&
		typeof delivery.event_id === 'string' &&
		typeof delivery.created_at === 'string'
	);
}

/** The endpoint's deliveries grouped by event, each delivery once (the lists given may overlap). */
function deliveriesByEvent(deliveries: unknown[], endpointId: string) {
	const seen = new Set<string>();
	const byEvent = new Map<string, ListedDelivery[]>();
	for (const delivery of deliveries) {
		if (!isListedDelivery(delivery) || delivery.endpoint_id !== endpointId) continue;
		if (seen.has(delivery.id)) continue;
		seen.add(delivery.id);
		byEvent.set(delivery.event_id, [...(byEvent.get(delivery.event_id) ?? []), delivery]);
	}
	return byEvent;
}

/** Unparseable timestamps count as infinitely old: an event of unknown age is not replayed. */
function timeOf(delivery: ListedDelivery): number {
	const ms = Date.parse(delivery.created_at);
	return Number.isNaN(ms) ? -Infinity : ms;
}

/**
 * The delivery to redeliver for one event, or `undefined` when the API still has the event in
 * hand (a delivery pending, processing, failed and to be retried, or delivered) or when every dead
 * delivery of it was redelivered already.
 */
function deliveryToRedeliver(
	deliveries: ListedDelivery[],
	redelivered: Set<string>,
): ListedDelivery | undefined {
	if (deliveries.some((delivery) => delivery.status !== 'dead')) return undefined;
	const candidates = deliveries.filter((delivery) => !redelivered.has(delivery.id));
	return candidates.sort((left, right) => timeOf(right) - timeOf(left))[0];
}

export function planRecovery(deliveries: unknown[], input: RecoveryInput): RecoveryPlan {
	const bounds = input.bounds ?? RECOVERY_BOUNDS;
	const oldestMs = input.nowMs - bounds.maxAgeHours * HOUR_MS;
	const byEvent = deliveriesByEvent(deliveries, input.endpointId);
	const redelivered = new Set(
		[...byEvent.values()].flat().flatMap((delivery) => delivery.redelivery_of ?? []),
	);

	const plan: RecoveryPlan = { redeliver: [], alreadyRun: 0, tooOld: 0, overLimit: 0 };
	const chosen: Array<{ delivery: ListedDelivery; firstMs: number }> = [];
	for (const [eventId, eventDeliveries] of byEvent) {
		const delivery = deliveryToRedeliver(eventDeliveries, redelivered);
		if (delivery === undefined) continue;
		// the event's age is its first delivery's: a redelivery is younger than the event
		const firstMs = Math.min(...eventDeliveries.map(timeOf));
		if (firstMs < oldestMs) plan.tooOld++;
		else if (input.isKnownEnvelope(eventId)) plan.alreadyRun++;
		else chosen.push({ delivery, firstMs });
	}

	chosen.sort((left, right) => left.firstMs - right.firstMs);
	plan.overLimit = Math.max(0, chosen.length - bounds.maxEvents);
	plan.redeliver = chosen.slice(plan.overLimit).map(({ delivery }) => delivery);
	return plan;
}
