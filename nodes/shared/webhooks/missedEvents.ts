/**
 * Which of an endpoint's deliveries to redeliver to recover the events the API gave up on, decided
 * from the API's own records (the ledger): every listed delivery of the event `dead`, and no later
 * delivery of it (a redelivery, `redelivery_of`, or another delivery of the same envelope id) that
 * was delivered or is still in the API's hands. Each such event once, through its newest delivery
 * that nobody redelivered yet, oldest event first, within the bounds. Pure: the caller lists the
 * deliveries (ledgerRead.ts) and redelivers.
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
	/** At most this many events are redelivered per recovery, the oldest; the rest wait for the next. */
	maxEvents: number;
}

export const RECOVERY_BOUNDS: RecoveryBounds = { maxAgeHours: 72, maxEvents: 500 };

export interface RecoveryInput {
	endpointId: string;
	nowMs: number;
	/**
	 * Every delivery of the endpoint created at or after this time is among those given (the list was
	 * read back to it). An event known only through a redelivery of an unlisted delivery is older.
	 * Default: the deliveries given are all there are.
	 */
	listedSinceMs?: number;
	/** Deliveries redelivered already, beside those the list shows as `redelivery_of`. */
	redelivered?: Iterable<string>;
	/** Whether the receiver already ran the event with this envelope id (the trigger's duplicate memory). */
	isKnownEnvelope?: (eventId: string) => boolean;
	bounds?: RecoveryBounds;
}

export interface RecoveryPlan {
	/** One delivery per event, oldest event first. */
	redeliver: ListedDelivery[];
	/**
	 * Events the receiver ran although the API has them dead (their answer was lost), one delivery
	 * each: redelivering them lets the API record them delivered, since the receiver ignores the copy.
	 */
	alreadyRun: ListedDelivery[];
	tooOld: number;
	overLimit: number;
	/** Events whose first delivery is older than the list reached, within the age bound: not judged. */
	unread: number;
}

const HOUR_MS = 3_600_000;

/** The start of the look-back: events first delivered before it are left alone. */
export function lookBackStartMs(nowMs: number, bounds: RecoveryBounds = RECOVERY_BOUNDS): number {
	return nowMs - bounds.maxAgeHours * HOUR_MS;
}

/** What the decision reads of a listed delivery record; `undefined` for one it cannot use. */
export function listedDeliveryOf(record: unknown): ListedDelivery | undefined {
	const { id, endpoint_id, event_id, status, redelivery_of, created_at } = (record ?? {}) as Record<
		string,
		unknown
	>;
	if (typeof id !== 'string' || typeof event_id !== 'string' || typeof created_at !== 'string') {
		return undefined;
	}
	return {
		id,
		endpoint_id: String(endpoint_id),
		event_id,
		status: String(status),
		redelivery_of: typeof redelivery_of === 'string' ? redelivery_of : null,
		created_at,
	};
}

/** The endpoint's deliveries grouped by event, each delivery once (the lists given may overlap). */
function deliveriesByEvent(deliveries: unknown[], endpointId: string) {
	const seen = new Set<string>();
	const byEvent = new Map<string, ListedDelivery[]>();
	for (const record of deliveries) {
		const delivery = listedDeliveryOf(record);
		if (delivery === undefined || delivery.endpoint_id !== endpointId) continue;
		if (seen.has(delivery.id)) continue;
		seen.add(delivery.id);
		byEvent.set(delivery.event_id, [...(byEvent.get(delivery.event_id) ?? []), delivery]);
	}
	return { byEvent, listed: seen };
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

/**
 * When the event was first delivered: its oldest listed delivery, or, when that one repeats a
 * delivery the list does not hold, some time before the list's reach.
 */
function firstDeliveredMs(
	deliveries: ListedDelivery[],
	listed: Set<string>,
	listedSinceMs: number,
) {
	const repeatsUnlisted = deliveries.some(
		(delivery) => delivery.redelivery_of !== null && !listed.has(delivery.redelivery_of),
	);
	const oldestListed = Math.min(...deliveries.map(timeOf));
	return repeatsUnlisted ? Math.min(oldestListed, listedSinceMs - 1) : oldestListed;
}

export function planRecovery(deliveries: unknown[], input: RecoveryInput): RecoveryPlan {
	const bounds = input.bounds ?? RECOVERY_BOUNDS;
	const oldestMs = lookBackStartMs(input.nowMs, bounds);
	const listedSinceMs = input.listedSinceMs ?? -Infinity;
	const { byEvent, listed } = deliveriesByEvent(deliveries, input.endpointId);
	const redelivered = new Set([
		...[...byEvent.values()].flat().flatMap((delivery) => delivery.redelivery_of ?? []),
		...(input.redelivered ?? []),
	]);

	const plan: RecoveryPlan = { redeliver: [], alreadyRun: [], tooOld: 0, overLimit: 0, unread: 0 };
	const chosen: Array<{ delivery: ListedDelivery; firstMs: number }> = [];
	for (const [eventId, eventDeliveries] of byEvent) {
		const delivery = deliveryToRedeliver(eventDeliveries, redelivered);
		if (delivery === undefined) continue;
		// the event's age is its first delivery's: a redelivery is younger than the event
		const firstMs = firstDeliveredMs(eventDeliveries, listed, listedSinceMs);
		if (firstMs < oldestMs) plan.tooOld++;
		else if (firstMs < listedSinceMs) plan.unread++;
		else if (input.isKnownEnvelope?.(eventId) === true) plan.alreadyRun.push(delivery);
		else chosen.push({ delivery, firstMs });
	}

	chosen.sort((left, right) => left.firstMs - right.firstMs);
	plan.redeliver = chosen.slice(0, bounds.maxEvents).map(({ delivery }) => delivery);
	plan.overLimit = chosen.length - plan.redeliver.length;
	return plan;
}
