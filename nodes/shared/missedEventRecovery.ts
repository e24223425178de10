/**
 * Recovers the events the API gave up delivering to one endpoint: reads the API's records of the
 * endpoint's deliveries (the ledger) back over the look-back, decides with missedEvents.ts, and
 * redelivers, holding the endpoint's recovery lease so that two recoveries (a republish during a
 * start-up recovery, two n8n mains starting together) never redeliver the same event twice. The
 * ledger is read only after the lease is taken: what an earlier holder redelivered is in it.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	planRecovery,
	RECOVERY_BOUNDS,
	type ListedDelivery,
	type RecoveryPlan,
} from './missedEvents';
import { acquireRecoveryLease, type RecoveryLease } from './recoveryLease';
import type { WorkforceApiContext, WorkforceListPage } from './transport';
import * as webhookDeliveries from './webhookDeliveries';

/** At most this many pages of 100 deliveries per recovery: 72 hours at about 270 deliveries an hour. */
export const MAX_LEDGER_PAGES = 200;

const HOUR_MS = 3_600_000;

export interface LedgerRead {
	deliveries: IDataObject[];
	/** Every delivery created at or after this time was read. */
	listedSinceMs: number;
	/** Why the reading stopped before the look-back's start, if it did. */
	cutShort?: 'page_limit' | 'no_cursor';
	/** The reading stopped short, and the API lists more dead deliveries than were seen. */
	moreDeadMayRemain?: boolean;
}

function createdMs(record: IDataObject): number {
	const ms = Date.parse(String(record.created_at));
	return Number.isNaN(ms) ? -Infinity : ms;
}

/**
 * The endpoint's deliveries of every status, newest first, back to `sinceMs`, following
 * `next_cursor`, plus the newest page of its `dead` ones (which may reach further back). Paging of
 * this list is not documented: an API that answers `has_more` without a cursor is read as far as
 * it lets, and the caller says so.
 */
async function readLedger(
	this: WorkforceApiContext,
	endpointId: string,
	sinceMs: number,
	dead: WorkforceListPage,
): Promise<LedgerRead> {
	const deliveries: IDataObject[] = [...dead.data];
	let cursor: string | undefined;
	for (let pages = 0; ; pages++) {
		if (pages === MAX_LEDGER_PAGES) return cut(deliveries, dead, 'page_limit');
		const page = await webhookDeliveries.listPage.call(this, cursor, { endpoint_id: endpointId });
		deliveries.push(...page.data);
		const oldest = Math.min(...page.data.map(createdMs));
		if (!page.has_more) return { deliveries, listedSinceMs: -Infinity };
		if (oldest < sinceMs) return { deliveries, listedSinceMs: oldest + 1 };
		if (typeof page.next_cursor !== 'string' || page.next_cursor === '') {
			return cut(deliveries, dead, 'no_cursor');
		}
		cursor = page.next_cursor;
	}
}

/** Read as far as the walk got: everything newer than its oldest record. */
function cut(
	all: IDataObject[],
	dead: WorkforceListPage,
	reason: LedgerRead['cutShort'],
): LedgerRead {
	const walked = all.slice(dead.data.length);
	return {
		deliveries: all,
		listedSinceMs: Math.min(...walked.map(createdMs)) + 1,
		cutShort: reason,
		moreDeadMayRemain: dead.has_more,
	};
}

export interface RecoveryOptions {
	nowMs: number;
	/** Whether the receiver already ran the event (the trigger's duplicate memory). */
	isKnownEnvelope?: (eventId: string) => boolean;
	/**
	 * Of the events the receiver already ran, those whose redelivery it will take for a duplicate:
	 * they are redelivered so the API records them delivered, and no later recovery looks at them.
	 */
	confirmsAsDuplicate?: (eventId: string) => boolean;
	/** The lease's settle time (recoveryLease.ts); tests shorten it. */
	leaseSettleSeconds?: number;
}

export type RecoveryOutcome =
	| { kind: 'nothing_dead' }
	| { kind: 'busy' }
	| {
			kind: 'recovered';
			plan: RecoveryPlan;
			ledger: LedgerRead;
			redelivered: number;
			confirmed: number;
			/** The redelivery that failed, or the lease lost, and how many were left. */
			stopped?: { reason: string; left: number };
	  };

/** Redelivers in order; stops at the first failure (an API that is down costs one wait) or when the lease is lost. */
async function redeliverEach(
	this: WorkforceApiContext,
	deliveries: ListedDelivery[],
	lease: RecoveryLease,
): Promise<{ done: number; stopped?: { reason: string; left: number } }> {
	for (const [done, delivery] of deliveries.entries()) {
		const left = deliveries.length - done;
		if (!(await lease.held())) {
			return { done, stopped: { reason: 'another recovery took the endpoint over', left } };
		}
		try {
			await webhookDeliveries.redeliver.call(this, delivery.id);
		} catch (error) {
			const reason = `could not redeliver delivery ${delivery.id}: ${(error as Error).message}`;
			return { done, stopped: { reason, left } };
		}
	}
	return { done: deliveries.length };
}

interface Decision {
	ledger: LedgerRead;
	plan: RecoveryPlan;
	/** The deliveries to redeliver: the missed events, then those that only confirm a run. */
	deliveries: ListedDelivery[];
}

async function decide(
	this: WorkforceApiContext,
	endpointId: string,
	options: RecoveryOptions,
	dead: WorkforceListPage,
): Promise<Decision> {
	const sinceMs = options.nowMs - RECOVERY_BOUNDS.maxAgeHours * HOUR_MS;
	const ledger = await readLedger.call(this, endpointId, sinceMs, dead);
	const plan = planRecovery(ledger.deliveries, {
		endpointId,
		nowMs: options.nowMs,
		listedSinceMs: ledger.listedSinceMs,
		isKnownEnvelope: options.isKnownEnvelope,
	});
	const confirm = plan.alreadyRun.filter(
		(delivery) => options.confirmsAsDuplicate?.(delivery.event_id) === true,
	);
	return { ledger, plan, deliveries: [...plan.redeliver, ...confirm] };
}

/**
 * Throws only when the ledger cannot be read or the lease taken; a failed redelivery ends the run.
 * The lease is taken only when there is something to redeliver, and the ledger read again under it.
 */
export async function recoverDeadDeliveries(
	this: WorkforceApiContext,
	endpointId: string,
	options: RecoveryOptions,
): Promise<RecoveryOutcome> {
	const sinceMs = options.nowMs - RECOVERY_BOUNDS.maxAgeHours * HOUR_MS;
	const probe = await webhookDeliveries.listPage.call(this, undefined, {
		endpoint_id: endpointId,
		status: 'dead',
	});
	if (!probe.data.some((record) => createdMs(record) >= sinceMs)) return { kind: 'nothing_dead' };
	const unleased = await decide.call(this, endpointId, options, probe);
	if (unleased.deliveries.length === 0) {
		return { kind: 'recovered', ...unleased, redelivered: 0, confirmed: 0 };
	}

	const lease = await acquireRecoveryLease.call(this, endpointId, options.leaseSettleSeconds);
	if (!lease) return { kind: 'busy' };
	try {
		const { ledger, plan, deliveries } = await decide.call(this, endpointId, options, probe);
		const run = await redeliverEach.call(this, deliveries, lease);
		return {
			kind: 'recovered',
			plan,
			ledger,
			redelivered: Math.min(run.done, plan.redeliver.length),
			confirmed: Math.max(0, run.done - plan.redeliver.length),
			stopped: run.stopped,
		};
	} finally {
		await lease.release().catch(() => {
			// the claim expires by itself; the outcome above is what the caller needs
		});
	}
}

/**
 * What a recovery could not judge because the ledger was read short, for n8n's log; `undefined`
 * when it read everything it needed.
 */
export function unreadShortfall(
	endpointId: string,
	{ ledger, plan }: Extract<RecoveryOutcome, { kind: 'recovered' }>,
): string | undefined {
	if (ledger.cutShort === undefined && plan.unread === 0) return undefined;
	const why =
		ledger.cutShort === 'no_cursor'
			? 'the API said more exist but gave no cursor to read them'
			: `${ledger.deliveries.length} deliveries read`;
	const more = ledger.moreDeadMayRemain === true ? ', and possibly more,' : '';
	const events = `${plan.unread} dead event${plan.unread === 1 ? '' : 's'}`;
	return `the deliveries of endpoint ${endpointId} were read back to ${new Date(ledger.listedSinceMs).toISOString()} only (${why}): ${events} seen older than that${more} ${plan.unread === 1 && more === '' ? 'was' : 'were'} not redelivered.`;
}
