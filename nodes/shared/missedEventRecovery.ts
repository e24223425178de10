/**
 * Recovers the events the API gave up delivering to one endpoint: reads the API's records of the
 * endpoint's deliveries (the ledger) back over the look-back, decides with missedEvents.ts, and
 * redelivers, holding the endpoint's recovery lease so that two recoveries (a republish during a
 * start-up recovery, two n8n mains starting together) never redeliver the same event twice. The
 * ledger is read only after the lease is taken: what an earlier holder redelivered is in it.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	listedDeliveryOf,
	planRecovery,
	RECOVERY_BOUNDS,
	type ListedDelivery,
	type RecoveryPlan,
} from './missedEvents';
import { acquireRecoveryLease, type RecoveryLease } from './recoveryLease';
import { MAX_EMPTY_PAGES_IN_A_ROW, PageBudget } from './transport';
import type { PageWalkStop, WorkforceApiContext, WorkforceListPage } from './transport';
import * as webhookDeliveries from './webhookDeliveries';

/**
 * What the two reads of the ledger in one recovery (before the claim, and again under it) may
 * spend in all. The first may spend half, so that the read under the claim, the one that decides
 * what is redelivered, has at least as much; once the budget is spent no read asks for more, and
 * what a read could not reach is not redelivered.
 * - `pages` of 100 deliveries: 200 per read cover the 72-hour look-back at about 270 deliveries
 *   an hour (a busier endpoint has its newest events judged, and the log names the rest), and
 *   bound the requests a recovery spends of the rate limit. Each page is dropped once read: what
 *   a read keeps is the decision's six short fields per delivery, about 6 MB at 20,000.
 * - `seconds`: a healthy API answers a page in well under a second, so only a slow or stuck one
 *   reaches this; it leaves most of the claim's 600 s (recoveryLease.ts) to the redeliveries. A
 *   request under way then runs to its own end (30 s).
 * Tests change them.
 */
export const LEDGER_READ_BUDGET = { pages: 400, seconds: 120 };

const HOUR_MS = 3_600_000;

export interface LedgerRead {
	/** Each delivery read once, with only the fields the decision reads. */
	deliveries: ListedDelivery[];
	/** Every delivery created at or after this time was read. */
	listedSinceMs: number;
	/** Why the reading stopped before the look-back's start, if it did. */
	cutShort?: PageWalkStop;
	/** The reading stopped short, and the API lists more dead deliveries than were seen. */
	moreDeadMayRemain?: boolean;
}

function createdMs(record: IDataObject): number {
	const ms = Date.parse(String(record.created_at));
	return Number.isNaN(ms) ? -Infinity : ms;
}

function ledgerReadBudget(): PageBudget {
	return PageBudget.of(LEDGER_READ_BUDGET.pages, LEDGER_READ_BUDGET.seconds * 1000);
}

/** Keeps each delivery of `records` not kept yet: the first read of a delivery wins, as in planRecovery. */
function keep(kept: Map<string, ListedDelivery>, records: IDataObject[]): void {
	for (const delivery of records.map(listedDeliveryOf)) {
		if (delivery !== undefined && !kept.has(delivery.id)) kept.set(delivery.id, delivery);
	}
}

/**
 * The endpoint's deliveries of every status, newest first, back to `sinceMs`, plus the newest
 * page of its `dead` ones (which may reach further back), each page dropped once read. Paging of
 * this list is not documented: a walk that stops (no cursor, a repeated one, endless empty pages,
 * the budget spent) is read as far as it got, and the caller says so.
 */
async function readLedger(
	this: WorkforceApiContext,
	endpointId: string,
	sinceMs: number,
	dead: WorkforceListPage,
	budget: PageBudget,
): Promise<LedgerRead> {
	const kept = new Map<string, ListedDelivery>();
	keep(kept, dead.data);
	let oldestWalkedMs = Infinity;
	const walk = webhookDeliveries.walk.call(this, { endpoint_id: endpointId }, budget);
	for await (const page of walk) {
		keep(kept, page.data);
		oldestWalkedMs = Math.min(oldestWalkedMs, ...page.data.map(createdMs));
		if (page.has_more && oldestWalkedMs < sinceMs) {
			return { deliveries: [...kept.values()], listedSinceMs: oldestWalkedMs + 1 };
		}
	}
	if (walk.stop === undefined) return { deliveries: [...kept.values()], listedSinceMs: -Infinity };
	return cut(kept, oldestWalkedMs, dead, walk.stop.reason);
}

/**
 * Read as far as the walk got: everything newer than its oldest record, or nothing when it read
 * no page.
 */
function cut(
	kept: Map<string, ListedDelivery>,
	oldestWalkedMs: number,
	dead: WorkforceListPage,
	reason: PageWalkStop,
): LedgerRead {
	return {
		deliveries: [...kept.values()],
		listedSinceMs: oldestWalkedMs + 1,
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
			return {
				done,
				stopped: {
					reason: 'another recovery took the endpoint over, or its workflow was deactivated',
					left,
				},
			};
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
	budget: PageBudget,
): Promise<Decision> {
	const sinceMs = options.nowMs - RECOVERY_BOUNDS.maxAgeHours * HOUR_MS;
	const ledger = await readLedger.call(this, endpointId, sinceMs, dead, budget);
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
	const budget = ledgerReadBudget();
	const unleased = await decide.call(this, endpointId, options, probe, budget.half());
	if (unleased.deliveries.length === 0) {
		return { kind: 'recovered', ...unleased, redelivered: 0, confirmed: 0 };
	}

	const lease = await acquireRecoveryLease.call(this, endpointId, options.leaseSettleSeconds);
	if (!lease) return { kind: 'busy' };
	try {
		const { ledger, plan, deliveries } = await decide.call(
			this,
			endpointId,
			options,
			probe,
			budget,
		);
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

const CUT_SHORT_BECAUSE: Record<PageWalkStop, string> = {
	no_cursor: 'the API said more exist but gave no cursor to read them',
	repeated_cursor: 'the API handed out the same page cursor twice',
	empty_pages: `the API answered ${MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row`,
	page_limit: 'the recovery read as many pages of them as it may',
	deadline: 'the recovery ran out of time to read them',
};

function countOf(count: number, one: string, many: string): string {
	return `${count} ${count === 1 ? one : many}`;
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
	const read = `${countOf(ledger.deliveries.length, 'delivery', 'deliveries')} read`;
	// a read that got no page (its budget spent) reached no time back: it judged nothing
	const reachedBack = Number.isFinite(ledger.listedSinceMs);
	const reach = reachedBack
		? `were read back to ${new Date(ledger.listedSinceMs).toISOString()} only, ${read}`
		: `were not read beyond the newest dead ones, ${read}`;
	const why = ledger.cutShort === undefined ? '' : ` (${CUT_SHORT_BECAUSE[ledger.cutShort]})`;
	const older = reachedBack ? ' older than that' : '';
	const more = ledger.moreDeadMayRemain === true ? ', and possibly more,' : '';
	const events = countOf(plan.unread, 'dead event', 'dead events');
	return `the deliveries of endpoint ${endpointId} ${reach}${why}: ${events} seen${older}${more} ${plan.unread === 1 && more === '' ? 'was' : 'were'} not redelivered.`;
}
