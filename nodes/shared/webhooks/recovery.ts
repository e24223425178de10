/**
 * Recovers the events the API gave up delivering to one endpoint: reads the API's records of the
 * endpoint's deliveries (the ledger) back over the look-back, decides with missedEvents.ts, and
 * redelivers, holding the endpoint's recovery lease so that two recoveries (a republish during a
 * start-up recovery, two n8n mains starting together) never redeliver the same event twice. The
 * ledger is read only after the lease is taken: what an earlier holder redelivered is in it.
 */
import type { PageBudget, WorkforceApiContext, WorkforceListPage } from '../transport';
import { acquireRecoveryLease, type RecoveryLease } from './claim';
import * as webhookDeliveries from './deliveries';
import {
	CUT_SHORT_BECAUSE,
	createdMs,
	type LedgerRead,
	ledgerReadBudget,
	readLedger,
} from './ledgerRead';
import {
	lookBackStartMs,
	planRecovery,
	type ListedDelivery,
	type RecoveryPlan,
} from './missedEvents';

export interface RecoveryOptions {
	nowMs: number;
	/** Whether the receiver already ran the event (the trigger's duplicate memory). */
	isKnownEnvelope?: (eventId: string) => boolean;
	/**
	 * Of the events the receiver already ran, those whose redelivery it will take for a duplicate:
	 * they are redelivered so the API records them delivered, and no later recovery looks at them.
	 */
	confirmsAsDuplicate?: (eventId: string) => boolean;
	/** The lease's settle time (claim.ts); tests shorten it. */
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
	const sinceMs = lookBackStartMs(options.nowMs);
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
	const sinceMs = lookBackStartMs(options.nowMs);
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

/** What a recovery reads of its endpoint: whether the API disabled it, and why. */
export interface EndpointState {
	id: string;
	enabled: boolean;
	disabled_reason?: string | null;
}

/** The outcome's count of redelivered events: none unless it recovered. */
export function redeliveredBy(outcome: RecoveryOutcome): number {
	return outcome.kind === 'recovered' ? outcome.redelivered : 0;
}

/** For n8n's log, when a recovery found its endpoint disabled and enabled it again. */
export function foundDisabledText(endpoint: EndpointState, redelivered: number): string {
	const reason = endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : '';
	return `webhook endpoint ${endpoint.id} was found disabled${reason}: enabled again, ${countOf(redelivered, 'missed event', 'missed events')} redelivered`;
}

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
