/**
 * The walk of an endpoint's deliveries list (the ledger) back over the recovery's look-back, within
 * a budget of pages and time, keeping of each delivery only what the decision reads
 * (missedEvents.ts). Paging of this list is not documented: a walk that stops early is read as far
 * as it got, and says why.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_EMPTY_PAGES_IN_A_ROW, PageBudget } from '../transport';
import type { PageWalkStop, WorkforceApiContext, WorkforceListPage } from '../transport';
import * as webhookDeliveries from './deliveries';
import { listedDeliveryOf, type ListedDelivery } from './missedEvents';

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
 *   reaches this; it leaves most of the claim's 600 s (claim.ts) to the redeliveries. A
 *   request under way then runs to its own end (30 s).
 * Tests change them.
 */
export const LEDGER_READ_BUDGET = { pages: 400, seconds: 120 };

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

export function createdMs(record: IDataObject): number {
	const ms = Date.parse(String(record.created_at));
	return Number.isNaN(ms) ? -Infinity : ms;
}

export function ledgerReadBudget(): PageBudget {
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
export async function readLedger(
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

/** Why a walk stopped before the look-back's start, in words for n8n's log. */
export const CUT_SHORT_BECAUSE: Record<PageWalkStop, string> = {
	no_cursor: 'the API said more exist but gave no cursor to read them',
	repeated_cursor: 'the API handed out the same page cursor twice',
	empty_pages: `the API answered ${MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row`,
	page_limit: 'the recovery read as many pages of them as it may',
	deadline: 'the recovery ran out of time to read them',
};
