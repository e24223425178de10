/**
 * Webhook Endpoint → Recover Missed Events: what the trigger does when n8n runs its activation,
 * for n8n lines that run none at start-up (2.36 and later run no webhook method of a published
 * workflow when they start). After an outage the API may have disabled the trigger's endpoint and
 * given up on its deliveries; this re-enables the endpoint and redelivers each of those events
 * once. The trigger ignores an event it already ran (its duplicate memory), so a redelivery of an
 * event whose answer was lost runs nothing. Meant for a Schedule workflow.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	describedWorkflowId,
	readableDescription,
	retirementToken,
} from '../../../shared/endpointDescription';
import { listRecoveryDeliveries, redeliverInOrder } from '../../../shared/missedEvents';
import { planRecovery, RECOVERY_BOUNDS } from '../../../shared/recoverySelection';
import * as webhookEndpoints from '../../../shared/webhookEndpoints';
import { getResourceId } from '../common';
import { endpointIdLocator } from './fields';

const THIS_N8N = 'thisN8n';
const ONE_ENDPOINT = 'endpoint';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['webhookEndpoint'], operation: ['recoverMissedEvents'] } },
	[
		{
			displayName: 'Recover For',
			name: 'recoverFor',
			type: 'options',
			options: [
				{
					name: 'Triggers of This N8n',
					value: THIS_N8N,
					description:
						'Every endpoint a Workforce Management Trigger of this n8n registered (at its webhook URL)',
				},
				{ name: 'One Endpoint', value: ONE_ENDPOINT, description: 'The endpoint chosen below' },
			],
			default: THIS_N8N,
		},
		{ ...endpointIdLocator, displayOptions: { show: { recoverFor: [ONE_ENDPOINT] } } },
	],
);

interface ListedEndpoint {
	id: string;
	url: string;
	description: string | null;
	enabled: boolean;
	disabled_reason?: string | null;
}

/**
 * Where this n8n's production webhooks live (its WEBHOOK_URL), read from the resume URL n8n gives
 * every execution: `<webhook base>/<webhook-waiting path>/<execution id>`.
 */
function webhookBaseOf(this: IExecuteFunctions, itemIndex: number): string {
	const resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
	return resumeUrl.replace(/[^/]+\/[^/]*$/, '');
}

/**
 * The production endpoints triggers of this n8n registered: at its webhook base, described as a
 * workflow's, not a test registration, and not retired by a deactivation (its deletion pending).
 */
function triggerEndpoints(endpoints: ListedEndpoint[], webhookBase: string): ListedEndpoint[] {
	return endpoints.filter(
		(endpoint) =>
			endpoint.url.startsWith(webhookBase) &&
			!endpoint.url.slice(webhookBase.length).startsWith('webhook-test/') &&
			describedWorkflowId(endpoint.description) !== undefined &&
			retirementToken(endpoint.description) === undefined,
	);
}

async function endpointsToRecover(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<ListedEndpoint[]> {
	if (this.getNodeParameter('recoverFor', itemIndex) === ONE_ENDPOINT) {
		const endpointId = getResourceId.call(this, 'endpointId', 'Webhook Endpoint', itemIndex);
		return [(await webhookEndpoints.get.call(this, endpointId)) as unknown as ListedEndpoint];
	}
	const listed = (await webhookEndpoints.list.call(this)) as unknown as ListedEndpoint[];
	return triggerEndpoints(listed, webhookBaseOf.call(this, itemIndex));
}

async function recover(
	this: IExecuteFunctions,
	endpoint: ListedEndpoint,
	itemIndex: number,
): Promise<IDataObject> {
	// first, so that the API sends the redeliveries and the events emitted from now on
	if (!endpoint.enabled) await webhookEndpoints.update.call(this, endpoint.id, { enabled: true });
	const plan = planRecovery(await listRecoveryDeliveries.call(this, endpoint.id), {
		endpointId: endpoint.id,
		nowMs: Date.now(),
		// the trigger skips an event it already ran when the redelivery arrives
		isKnownEnvelope: () => false,
	});
	const { redelivered, failed } = await redeliverInOrder.call(
		this,
		plan.redeliver.map((delivery) => delivery.id),
	);
	if (failed) {
		throw new NodeOperationError(
			this.getNode(),
			`Could not redeliver delivery ${failed.deliveryId} of webhook endpoint ${endpoint.id} (${redelivered} of ${plan.redeliver.length} redelivered): ${failed.error.message}`,
			{ itemIndex, description: 'The next run tries the rest again.' },
		);
	}
	if (!endpoint.enabled) {
		this.logger.warn(
			`Webhook endpoint ${endpoint.id} ("${endpoint.description ?? ''}") was disabled${endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : ''}: enabled again, ${redelivered} missed event(s) redelivered`,
			{ endpointId: endpoint.id },
		);
	}
	return {
		endpoint_id: endpoint.id,
		description: readableDescription(endpoint.description ?? ''),
		url: endpoint.url,
		re_enabled: !endpoint.enabled,
		redelivered,
		[`older_than_${RECOVERY_BOUNDS.maxAgeHours}_hours`]: plan.tooOld,
		[`over_${RECOVERY_BOUNDS.maxEvents}_per_run`]: plan.overLimit,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	for (const endpoint of await endpointsToRecover.call(this, itemIndex)) {
		results.push(await recover.call(this, endpoint, itemIndex));
	}
	return results;
}
