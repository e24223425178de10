/**
 * Webhook Endpoint → Recover Missed Events: what the trigger does when n8n runs its activation,
 * for n8n lines that run none at start-up (2.36 and later run no webhook method of a published
 * workflow when they start). After an outage the API may have disabled the trigger's endpoint and
 * given up on its deliveries; this re-enables the endpoint and redelivers each of those events
 * once, with the trigger's own recovery (the API's delivery records, and one recovery at a time per
 * endpoint). The trigger ignores an event it already ran (its duplicate memory), so a redelivery of
 * an event whose answer was lost runs nothing. Meant for a Schedule workflow.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	describedWorkflowId,
	readableDescription,
	type EndpointState,
	foundDisabledText,
	recoverDeadDeliveries,
	RECOVERY_BOUNDS,
	type RecoveryOutcome,
	redeliveredBy,
	retirementMarkOf,
	unreadShortfall,
	webhookEndpoints,
} from '../../../shared/webhooks';
import { getResourceId } from '../common';
import type { OperationOption } from '../types';
import { endpointIdLocator } from './fields';

const THIS_N8N = 'thisN8n';
const ONE_ENDPOINT = 'endpoint';

export const option = {
	name: 'Recover Missed Events',
	value: 'recoverMissedEvents',
	description:
		'Re-enable a trigger endpoint the API disabled and redeliver, once, the events it gave up on',
	action: 'Recover missed events of webhook endpoints',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [
	{
		displayName: 'Recover For',
		name: 'recoverFor',
		type: 'options',
		options: [
			{
				name: 'All Triggers in This Instance',
				value: THIS_N8N,
				description:
					'Every endpoint the Workforce Management Triggers of this n8n instance registered (at its webhook URL)',
			},
			{ name: 'One Endpoint', value: ONE_ENDPOINT, description: 'The endpoint chosen below' },
		],
		default: THIS_N8N,
	},
	{ ...endpointIdLocator, displayOptions: { show: { recoverFor: [ONE_ENDPOINT] } } },
];

interface ListedEndpoint extends EndpointState {
	url: string;
	description: string | null;
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
 * Whether `url` is a production webhook URL of a trigger of this n8n: exactly
 * `<webhook base>webhook/<webhook id>/webhook`, the path n8n gives a trigger node's webhook (its
 * default `N8N_ENDPOINT_WEBHOOK`). Never by prefix: another n8n may be served under this one's
 * origin (`https://host/staging/` beside `https://host/`).
 */
export function isProductionWebhookUrl(url: string, webhookBase: string): boolean {
	if (!url.startsWith(webhookBase)) return false;
	return /^webhook\/[0-9A-Za-z-]+\/webhook$/.test(url.slice(webhookBase.length));
}

/**
 * The production endpoints triggers of this n8n registered: at one of its production webhook URLs,
 * described as a workflow's, and not retired by a deactivation (its deletion pending).
 */
function triggerEndpoints(endpoints: ListedEndpoint[], webhookBase: string): ListedEndpoint[] {
	return endpoints.filter(
		(endpoint) =>
			isProductionWebhookUrl(endpoint.url, webhookBase) &&
			describedWorkflowId(endpoint.description) !== undefined &&
			retirementMarkOf(endpoint.description) === undefined,
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

/** What a run did for one endpoint, beside whether it enabled it. */
function outcomeFields(outcome: RecoveryOutcome): IDataObject {
	const recovered = outcome.kind === 'recovered' ? outcome : undefined;
	return {
		redelivered: redeliveredBy(outcome),
		[`older_than_${RECOVERY_BOUNDS.maxAgeHours}_hours`]: recovered?.plan.tooOld ?? 0,
		[`over_${RECOVERY_BOUNDS.maxEvents}_per_run`]: recovered?.plan.overLimit ?? 0,
		not_read: recovered?.plan.unread ?? 0,
		busy: outcome.kind === 'busy',
	};
}

async function recover(
	this: IExecuteFunctions,
	endpoint: ListedEndpoint,
	itemIndex: number,
): Promise<IDataObject> {
	// first, so that the API sends the redeliveries and the events emitted from now on
	if (!endpoint.enabled) await webhookEndpoints.update.call(this, endpoint.id, { enabled: true });
	// the trigger's duplicate memory is not readable here: it skips an event it already ran when
	// the redelivery arrives
	const outcome = await recoverDeadDeliveries.call(this, endpoint.id, { nowMs: Date.now() });
	const fields = outcomeFields(outcome);
	if (outcome.kind === 'recovered' && outcome.stopped) {
		throw new NodeOperationError(
			this.getNode(),
			`Stopped recovering missed events of webhook endpoint ${endpoint.id} (${outcome.redelivered} of ${outcome.plan.redeliver.length} redelivered): ${outcome.stopped.reason}`,
			{ itemIndex, description: 'The next run tries the rest again.' },
		);
	}
	const unread = outcome.kind === 'recovered' ? unreadShortfall(endpoint.id, outcome) : undefined;
	if (unread !== undefined) {
		this.logger.warn(`Recover Missed Events: ${unread}`, {
			endpointId: endpoint.id,
		});
	}
	if (!endpoint.enabled) {
		const text = foundDisabledText(endpoint, redeliveredBy(outcome));
		this.logger.warn(`Recover Missed Events: ${text}.`, { endpointId: endpoint.id });
	}
	return {
		endpoint_id: endpoint.id,
		description: readableDescription(endpoint.description ?? ''),
		url: endpoint.url,
		re_enabled: !endpoint.enabled,
		...fields,
	};
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	for (const endpoint of await endpointsToRecover.call(this, itemIndex)) {
		results.push(await recover.call(this, endpoint, itemIndex));
	}
	return results;
}
