/**
 * The trigger's own schedule: every few minutes it reads its endpoint once, and when the API has
 * disabled it (after failed deliveries: n8n was down or unreachable), enables it again and recovers
 * the events the API gave up on (recovery.ts, under the one claim per endpoint).
 *
 * Why a schedule: n8n 2.36 and later run no webhook method of a published workflow when they start,
 * and an endpoint can be disabled while n8n runs (a proxy in front of it down). n8n runs `trigger()`
 * when it publishes the workflow, on the main that runs triggers (the leader in queue mode and
 * multi-main, never a webhook process or a worker), and stops what it registered when the workflow
 * is unpublished or published again. 2.41 also re-publishes at start-up a published workflow whose
 * `trigger()` has not run, which runs `checkExists()`: the endpoint heals at once there.
 *
 * Static data read here is as activation left it: n8n neither reloads nor saves it for `trigger()`.
 * That is enough: the endpoint id, and a duplicate memory that `webhook()` completes from the
 * database when a redelivery arrives.
 */
import type { Cron, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import { inBackground } from '../background';
import { operatorLog } from '../operatorLog';
import { triggerOptions } from '../options';
import { fetchEndpoint, patchEndpoint } from '../registration';
import type { TriggerStaticData } from '../staticData';
import { recoverMissedEvents, warnFoundDisabled } from './recovery';

/** How often the endpoint is read, unless the node's options say otherwise. */
export const DEFAULT_ENDPOINT_CHECK_MINUTES = 5;

/**
 * Every `minutes`, at a second of the minute that depends on the workflow and node, so that many
 * triggers of one n8n do not all call the API at once.
 */
export function endpointCheckCron(minutes: number, workflowId: string, nodeId: string): string {
	const every = Number.isInteger(minutes) && minutes >= 1 && minutes <= 59 ? minutes : 5;
	const second = createHash('sha256').update(`${workflowId}/${nodeId}`).digest()[0] % 60;
	return `${second} */${every} * * * *`;
}

async function checkEndpoint(this: ITriggerFunctions): Promise<void> {
	const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
	const endpointId = staticData.endpointId;
	if (endpointId === undefined) return;
	const endpoint = await fetchEndpoint.call(this, endpointId);
	if (endpoint === undefined || endpoint.enabled) return;

	await patchEndpoint.call(this, endpointId, { enabled: true });
	const redelivered = await recoverMissedEvents.call(this, staticData, endpointId);
	warnFoundDisabled.call(this, endpoint, redelivered);
}

function warnCheckFailed(this: ITriggerFunctions, what: string, error: Error): void {
	const { where, meta } = operatorLog(this);
	this.logger.warn(`${where}: could not ${what}: ${error.message}.`, meta);
}

/**
 * Registers the schedule; never throws, so that publishing never fails over it. n8n calls
 * `trigger()` in manual mode only for nodes without `execute()`, which this node has; should it
 * still, nothing is scheduled (n8n would not stop it) and the node outputs nothing.
 */
export function watchEndpoint(this: ITriggerFunctions): ITriggerResponse {
	if (this.getMode() === 'manual') return { manualTriggerFunction: async () => this.emit([[]]) };
	try {
		const minutes = triggerOptions(this).endpointCheckMinutes ?? DEFAULT_ENDPOINT_CHECK_MINUTES;
		const workflowId = this.getWorkflow().id ?? '';
		const expression = endpointCheckCron(Number(minutes), workflowId, this.getNode().id);
		this.helpers.registerCron({ expression: expression as Cron['expression'] }, () => {
			inBackground('endpointCheck', 0, async () => {
				await checkEndpoint.call(this).catch((error: Error) => {
					warnCheckFailed.call(
						this,
						'check its webhook endpoint (the next check tries again)',
						error,
					);
				});
			});
		});
	} catch (error) {
		warnCheckFailed.call(this, 'schedule the check of its webhook endpoint', error as Error);
	}
	return {};
}
