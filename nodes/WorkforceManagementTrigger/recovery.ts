/**
 * Recovers missed events: once the endpoint is known to exist and deliver (n8n's start-up and an
 * activation that kept the endpoint), the events whose deliveries the API gave up on are
 * redelivered once; recoverySelection.ts decides which. Recovery never fails activation: a failure
 * is logged, and what was not redelivered is tried again at the next start.
 */
import type { IHookFunctions } from 'n8n-workflow';

import { listRecoveryDeliveries, redeliverInOrder } from '../shared/missedEvents';
import {
	type ListedDelivery,
	planRecovery,
	RECOVERY_BOUNDS,
	type RecoveryPlan,
} from '../shared/recoverySelection';
import { inBackground, TRIGGER_DELAYS } from './background';
import type { TriggerStaticData } from './delivery';
import { knownEnvelopeCheck } from './knownEnvelopes';
import { operatorLog } from './operatorLog';
import { triggerOptions } from './options';

function countOf(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

async function redeliverEach(this: IHookFunctions, deliveries: ListedDelivery[]): Promise<number> {
	const { redelivered, failed } = await redeliverInOrder.call(
		this,
		deliveries.map((delivery) => delivery.id),
	);
	if (failed) {
		const { where, meta } = operatorLog(this);
		this.logger.warn(
			`${where}: stopped recovering missed events after ${redelivered} of ${deliveries.length}: could not redeliver delivery ${failed.deliveryId}: ${failed.error.message}. The rest are tried again at the next start.`,
			meta,
		);
	}
	return redelivered;
}

function summary(plan: RecoveryPlan, redelivered: number): string {
	const leftAlone = [
		plan.tooOld > 0 ? `${plan.tooOld} older than ${RECOVERY_BOUNDS.maxAgeHours} hours` : '',
		plan.overLimit > 0 ? `${plan.overLimit} beyond ${RECOVERY_BOUNDS.maxEvents} per start` : '',
	].filter(Boolean);
	return [
		`${countOf(redelivered, 'missed event')} redelivered`,
		`${plan.alreadyRun} skipped as already run`,
		...(leftAlone.length > 0 ? [`${leftAlone.join(' and ')} left alone`] : []),
	].join(', ');
}

export async function recoverMissedEvents(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	endpointId: string,
): Promise<void> {
	if (triggerOptions(this).recoverMissedEvents === false) return;
	const { where, meta } = operatorLog(this);

	let plan: RecoveryPlan;
	try {
		plan = planRecovery(await listRecoveryDeliveries.call(this, endpointId), {
			endpointId,
			nowMs: Date.now(),
			isKnownEnvelope: knownEnvelopeCheck(staticData),
		});
	} catch (error) {
		this.logger.warn(
			`${where}: could not list the deliveries of endpoint ${endpointId} to recover missed events: ${(error as Error).message}. Nothing was redelivered; the next start tries again.`,
			meta,
		);
		return;
	}

	const found = plan.redeliver.length + plan.alreadyRun + plan.tooOld + plan.overLimit;
	if (found === 0) {
		this.logger.debug(`${where}: no missed events for endpoint ${endpointId}`, meta);
		return;
	}
	const redelivered = await redeliverEach.call(this, plan.redeliver);
	this.logger.info(
		`${where}: recovering events the API gave up delivering to endpoint ${endpointId} (retries exhausted or endpoint disabled): ${summary(plan, redelivered)}.`,
		meta,
	);
}

/**
 * Recovers once n8n has saved what activation wrote: a redelivery arriving before that save would
 * load static data without the secret (a republish cleared it) and be refused. Never throws.
 */
export function recoverMissedEventsAfterActivation(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	endpointId: string,
): void {
	inBackground('recovery', TRIGGER_DELAYS.recoveryAfterActivationSeconds, async () => {
		try {
			await recoverMissedEvents.call(this, staticData, endpointId);
		} catch (error) {
			const { where, meta } = operatorLog(this);
			this.logger.warn(
				`${where}: could not recover missed events of endpoint ${endpointId}: ${(error as Error).message}. The next activation tries again.`,
				meta,
			);
		}
	});
}
