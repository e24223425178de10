import {
	type ListedDelivery,
	planRecovery,
	RECOVERY_BOUNDS,
	type RecoveryInput,
} from '../../nodes/shared/webhooks';

const ENDPOINT = '5b7f3f0e-0d3c-4a61-9a38-1f1f6c2b9a01';
const NOW_MS = Date.parse('2026-11-23T08:00:00.000+00:00');

let nextId = 0;

/** A dead delivery of `eventId` to the endpoint, created `hoursAgo` before NOW_MS. */
function delivery(
	eventId: string,
	hoursAgo: number,
	overrides: Partial<ListedDelivery> = {},
): ListedDelivery {
	nextId++;
	return {
		id: `d${nextId}`,
		endpoint_id: ENDPOINT,
		event_id: eventId,
		status: 'dead',
		redelivery_of: null,
		created_at: new Date(NOW_MS - hoursAgo * 3_600_000).toISOString(),
		...overrides,
	};
}

function plan(deliveries: unknown[], input: Partial<RecoveryInput> = {}) {
	return planRecovery(deliveries, {
		endpointId: ENDPOINT,
		nowMs: NOW_MS,
		...input,
	});
}

function redeliveredIds(deliveries: unknown[], input: Partial<RecoveryInput> = {}): string[] {
	return plan(deliveries, input).redeliver.map((chosen) => chosen.id);
}

describe('planRecovery', () => {
	it('recovers nothing from an empty list', () => {
		expect(plan([])).toEqual({
			redeliver: [],
			alreadyRun: [],
			tooOld: 0,
			overLimit: 0,
			unread: 0,
		});
	});

	it('redelivers each dead event once, oldest first, whatever order the list has', () => {
		const friday = delivery('evt_fri', 60);
		const saturday = delivery('evt_sat', 40);
		const sunday = delivery('evt_sun', 20);
		expect(redeliveredIds([sunday, friday, saturday])).toEqual([friday.id, saturday.id, sunday.id]);
	});

	it('leaves failed, pending and processing deliveries to the API, which still retries them', () => {
		const inHand = ['failed', 'pending', 'processing'].map((status) =>
			delivery(`evt_${status}`, 2, { status }),
		);
		expect(redeliveredIds(inHand)).toEqual([]);
	});

	it('counts one delivery listed twice (the dead page and the latest page overlap) once', () => {
		const dead = delivery('evt_a', 5);
		expect(plan([dead, { ...dead }]).redeliver).toEqual([dead]);
	});

	it('skips an event delivered later (a redelivery that arrived)', () => {
		const original = delivery('evt_a', 30);
		const arrived = delivery('evt_a', 1, { status: 'delivered', redelivery_of: original.id });
		expect(redeliveredIds([arrived, original])).toEqual([]);
	});

	it('skips an event whose redelivery the API still retries', () => {
		const original = delivery('evt_a', 30);
		const retrying = delivery('evt_a', 1, { status: 'failed', redelivery_of: original.id });
		expect(redeliveredIds([retrying, original])).toEqual([]);
	});

	it('redelivers the newest attempt of an event whose redelivery died too, not the original', () => {
		const original = delivery('evt_a', 30);
		const redelivery = delivery('evt_a', 3, { redelivery_of: original.id });
		expect(redeliveredIds([original, redelivery])).toEqual([redelivery.id]);
	});

	it('sets apart events the duplicate memory holds, with the delivery that would confirm them', () => {
		const ran = delivery('evt_ran', 10);
		const missed = delivery('evt_missed', 10);
		const result = plan([ran, missed], { isKnownEnvelope: (eventId) => eventId === 'evt_ran' });
		expect(result.redeliver).toEqual([missed]);
		expect(result.alreadyRun).toEqual([ran]);
	});

	it('skips an event whose confirmation by redelivery was delivered, however long ago', () => {
		const original = delivery('evt_ran', 60);
		const confirmed = delivery('evt_ran', 59, { status: 'delivered', redelivery_of: original.id });
		expect(plan([confirmed, original])).toMatchObject({ redeliver: [], alreadyRun: [] });
	});

	it('skips a dead delivery the caller redelivered already, though the list does not show it yet', () => {
		const dead = delivery('evt_a', 5);
		expect(redeliveredIds([dead], { redelivered: [dead.id] })).toEqual([]);
	});

	it('does not judge an event whose first delivery is older than the list reached', () => {
		const original = delivery('evt_a', 40);
		const redelivery = delivery('evt_a', 2, { redelivery_of: original.id });
		const deadBeyondReach = delivery('evt_b', 30);
		const result = plan([redelivery, deadBeyondReach], {
			listedSinceMs: NOW_MS - 10 * 3_600_000,
		});
		expect(result).toMatchObject({ redeliver: [], unread: 2, tooOld: 0 });
	});

	it('takes a redelivery of an unlisted delivery for too old when the list reached the age bound', () => {
		const original = delivery('evt_a', RECOVERY_BOUNDS.maxAgeHours + 1);
		const redelivery = delivery('evt_a', 2, { redelivery_of: original.id });
		const result = plan([redelivery], {
			listedSinceMs: NOW_MS - RECOVERY_BOUNDS.maxAgeHours * 3_600_000,
		});
		expect(result).toMatchObject({ redeliver: [], unread: 0, tooOld: 1 });
	});

	it('leaves events older than the bound alone, judged by their first delivery', () => {
		const { maxAgeHours } = RECOVERY_BOUNDS;
		const justInside = delivery('evt_inside', maxAgeHours - 0.01);
		const tooOld = delivery('evt_old', maxAgeHours + 0.01);
		const original = delivery('evt_redelivered', maxAgeHours + 5);
		const recentRedelivery = delivery('evt_redelivered', 1, { redelivery_of: original.id });
		const result = plan([justInside, tooOld, original, recentRedelivery]);
		expect(result.redeliver).toEqual([justInside]);
		expect(result.tooOld).toBe(2);
	});

	it('does not ask the duplicate memory about events beyond the age bound', () => {
		const asked: string[] = [];
		plan([delivery('evt_old', 100)], { isKnownEnvelope: (eventId) => asked.push(eventId) > 0 });
		expect(asked).toEqual([]);
	});

	it('treats a delivery without a readable created_at as too old', () => {
		const result = plan([delivery('evt_a', 1, { created_at: 'yesterday-ish' })]);
		expect(result).toMatchObject({ redeliver: [], tooOld: 1 });
	});

	it('keeps the oldest events within the count bound (nearest the age bound), oldest first', () => {
		const bounds = { maxAgeHours: 72, maxEvents: 2 };
		const deliveries = [1, 2, 3, 4].map((hoursAgo) => delivery(`evt_${hoursAgo}`, hoursAgo));
		const result = plan(deliveries, { bounds });
		expect(result.redeliver.map((chosen) => chosen.event_id)).toEqual(['evt_4', 'evt_3']);
		expect(result.overLimit).toBe(2);
	});

	it('ignores other endpoints’ deliveries and records it cannot read', () => {
		const elsewhere = delivery('evt_a', 1, { endpoint_id: 'another-endpoint' });
		const ours = delivery('evt_b', 1);
		expect(redeliveredIds([elsewhere, null, 'text', { id: 'x' }, ours])).toEqual([ours.id]);
	});
	it('ignores records without an event id or a creation time instead of counting them', () => {
		const withoutEvent = { ...delivery('evt_a', 1), event_id: undefined };
		const withoutTime = { ...delivery('evt_b', 1), created_at: undefined };
		expect(plan([withoutEvent, withoutTime])).toEqual({
			redeliver: [],
			alreadyRun: [],
			tooOld: 0,
			overLimit: 0,
			unread: 0,
		});
	});

	it('redelivers the newest of several dead redeliveries, whatever order the list has', () => {
		const original = delivery('evt_a', 30);
		const first = delivery('evt_a', 10, { redelivery_of: original.id });
		const second = delivery('evt_a', 3, { redelivery_of: original.id });
		expect(redeliveredIds([original, first, second])).toEqual([second.id]);
		expect(redeliveredIds([second, first, original])).toEqual([second.id]);
	});

	it('never redelivers a delivery redelivered already, even one created in the same millisecond', () => {
		const original = delivery('evt_a', 5);
		const redelivery = delivery('evt_a', 5, { redelivery_of: original.id });
		expect(redeliveredIds([original, redelivery])).toEqual([redelivery.id]);
	});

	it('recovers an event first delivered exactly at the age bound', () => {
		const atTheBound = delivery('evt_edge', RECOVERY_BOUNDS.maxAgeHours);
		expect(plan([atTheBound])).toMatchObject({ redeliver: [atTheBound], tooOld: 0 });
	});
});
