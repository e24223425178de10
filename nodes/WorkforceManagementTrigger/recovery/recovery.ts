/**
 * Recovers missed events: once the endpoint is known to exist and deliver (n8n's start-up and an
 * activation that kept the endpoint), the events whose deliveries the API gave up on are
 * redelivered once, decided from the API's records (nodes/shared/webhooks). Events the
 * duplicate memory holds (they ran, their answer was lost) are redelivered too while the memory
 * still takes them for duplicates: they do not run, and the API records them delivered, so no
 * later start looks at them again. Recovery never fails activation: a failure is logged.
 */
import type { IHookFunctions, ITriggerFunctions } from 'n8n-workflow';

import {
	type EndpointState,
	foundDisabledText,
	recoverDeadDeliveries,
	RECOVERY_BOUNDS,
	type RecoveryOutcome,
	unreadShortfall,
} from '../../shared/webhooks';
import { inBackground, TRIGGER_DELAYS } from '../background';
import { operatorLog } from '../operatorLog';
import { triggerOptions } from '../options';
import type { TriggerStaticData } from '../staticData';
import { knownEnvelopes } from './knownEnvelopes';

type Recovered = Extract<RecoveryOutcome, { kind: 'recovered' }>;

function countOf(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function summary({ plan, redelivered }: Recovered): string {
	const leftAlone = [
		plan.tooOld > 0 ? `${plan.tooOld} older than ${RECOVERY_BOUNDS.maxAgeHours} hours` : '',
	].filter(Boolean);
	return [
		`${countOf(redelivered, 'missed event')} redelivered`,
		`${plan.alreadyRun.length} skipped as already run`,
		...(leftAlone.length > 0 ? [`${leftAlone.join(' and ')} left alone`] : []),
		...(plan.overLimit > 0
			? [`${plan.overLimit} beyond ${RECOVERY_BOUNDS.maxEvents} per start left for the next start`]
			: []),
	].join(', ');
}

function nothingFound({ plan, ledger }: Recovered): boolean {
	const left = plan.tooOld + plan.overLimit + plan.unread;
	return plan.redeliver.length + plan.alreadyRun.length + left === 0 && !ledger.cutShort;
}

/** What the log must say beyond the summary: what was left, and why. */
function shortfalls(
	this: IHookFunctions | ITriggerFunctions,
	endpointId: string,
	outcome: Recovered,
): void {
	const { where, meta } = operatorLog(this);
	const { stopped } = outcome;
	const unread = unreadShortfall(endpointId, outcome);
	if (unread !== undefined) this.logger.warn(`${where}: ${unread}`, meta);
	if (stopped) {
		this.logger.warn(
			`${where}: stopped recovering missed events of endpoint ${endpointId} with ${stopped.left} left: ${stopped.reason}. The rest are tried again at the next start.`,
			meta,
		);
	}
}

/** Recovers, and logs what it did; the number of missed events redelivered. Never throws. */
export async function recoverMissedEvents(
	this: IHookFunctions | ITriggerFunctions,
	staticData: TriggerStaticData,
	endpointId: string,
): Promise<number> {
	const options = triggerOptions(this);
	if (options.recoverMissedEvents === false) return 0;
	const { where, meta } = operatorLog(this);
	const nowMs = Date.now();
	const known = knownEnvelopes(staticData, Math.floor(nowMs / 1000));

	let outcome: RecoveryOutcome;
	try {
		outcome = await recoverDeadDeliveries.call(this, endpointId, {
			nowMs,
			isKnownEnvelope: known.isKnown,
			// with duplicates not ignored, a confirming redelivery would run the event again
			confirmsAsDuplicate:
				options.ignoreDuplicates === false ? () => false : known.confirmsAsDuplicate,
			leaseSettleSeconds: TRIGGER_DELAYS.recoveryLeaseSettleSeconds,
		});
	} catch (error) {
		this.logger.warn(
			`${where}: could not list the deliveries of endpoint ${endpointId} to recover missed events: ${(error as Error).message}. Nothing was redelivered; the next start tries again.`,
			meta,
		);
		return 0;
	}

	if (outcome.kind === 'nothing_dead' || (outcome.kind === 'recovered' && nothingFound(outcome))) {
		this.logger.debug(`${where}: no missed events for endpoint ${endpointId}`, meta);
		return 0;
	}
	if (outcome.kind === 'busy') {
		this.logger.info(
			`${where}: another recovery of missed events for endpoint ${endpointId} is under way (another n8n process or main); it is left to that one.`,
			meta,
		);
		return 0;
	}
	this.logger.info(
		`${where}: recovering events the API gave up delivering to endpoint ${endpointId} (retries exhausted or endpoint disabled): ${summary(outcome)}.`,
		meta,
	);
	shortfalls.call(this, endpointId, outcome);
	return outcome.redelivered;
}

/** What the API disabled, as the endpoint said when the trigger found it disabled. */
/** Says, at warning level, that the endpoint of this published workflow was found disabled. */
export function warnFoundDisabled(
	this: IHookFunctions | ITriggerFunctions,
	endpoint: EndpointState,
	redelivered: number,
): void {
	const { where, meta } = operatorLog(this);
	this.logger.warn(`${where}: ${foundDisabledText(endpoint, redelivered)}.`, meta);
}

export function recoverMissedEventsAfterActivation(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	endpointId: string,
	foundDisabled?: EndpointState,
): void {
	inBackground('recovery', TRIGGER_DELAYS.recoveryAfterActivationSeconds, async () => {
		try {
			const redelivered = await recoverMissedEvents.call(this, staticData, endpointId);
			if (foundDisabled) warnFoundDisabled.call(this, foundDisabled, redelivered);
		} catch (error) {
			const { where, meta } = operatorLog(this);
			this.logger.warn(
				`${where}: could not recover missed events of endpoint ${endpointId}: ${(error as Error).message}. The next activation tries again.`,
				meta,
			);
		}
	});
}
