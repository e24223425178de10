import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	ENDPOINT_EVENT_TYPES_METHOD,
	endpointEventsProperty,
	endpointEventTypeOptions,
	SITE_EVENT_PREFIX,
} from '../shared/eventCatalog';
import { CREDENTIAL_TYPE } from '../shared/transport';
import { RECOVERY_BOUNDS } from '../shared/webhooks';
import { passDeliveryThrough, receiveDelivery } from './delivery';
import * as lifecycle from './lifecycle';
import { ENVELOPE_MEMORY_LIMITS, EVENTS_PER_HOUR_COVERED } from './duplicates/envelopeMemory';
import { DEFAULT_TOLERANCE_SECONDS } from './options';
import { DEFAULT_ENDPOINT_CHECK_MINUTES, watchEndpoint } from './recovery/endpointWatch';

export class WorkforceManagementTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workforce Management Trigger',
		name: 'workforceManagementTrigger',
		icon: {
			light: 'file:workforceManagementTrigger.svg',
			dark: 'file:workforceManagementTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		// Used by the editor as it is; the codex's links get a query appended, which breaks a #fragment.
		documentationUrl:
			'https://github.com/n8n-nodes-workforce-management/n8n-nodes-workforce-management#webhooks',
		// the events as the picker titles them (eventTitle): "Timesheet Approved, Site Created"
		subtitle: `={{ $parameter["events"].includes("*") ? "All Events" : $parameter["events"].join(", ").replace(/${SITE_EVENT_PREFIX.api}\\./g, "${SITE_EVENT_PREFIX.node}.").replace(/[._]/g, " ").toTitleCase() }}`,
		// n8n's node creator lists this package as one entry, the action node merged with this
		// trigger, and shows the trigger's description for it: so it describes both nodes.
		description:
			'Manage members, customers, sites and webhooks in Workforce Management, and start workflows when its events happen',
		defaults: {
			name: 'Workforce Management Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Without it n8n 2.8 answers the literal text "firstEntryJson"; the API needs only a 2xx.
				responseData: 'noData',
				path: 'webhook',
			},
		],
		properties: [
			{
				...endpointEventsProperty(
					'The events that start the workflow. Only events of the modules active for the organization are offered',
				),
				required: true,
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Endpoint Check Interval (Minutes)',
						name: 'endpointCheckMinutes',
						type: 'number',
						typeOptions: {
							minValue: 1,
							maxValue: 59,
						},
						default: DEFAULT_ENDPOINT_CHECK_MINUTES,
						description:
							'How often, while the workflow is published, the trigger reads its webhook endpoint in Workforce Management. If the API disabled it after failed deliveries (n8n was down or unreachable), the trigger enables it again and recovers the events the API gave up on. One API request per check.',
					},
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description: `Whether a retry or redelivery of an event already received (same event ID, accepted within the last ${ENVELOPE_MEMORY_LIMITS.windowHours - 1} hours, at up to ${EVENTS_PER_HOUR_COVERED} events an hour) is acknowledged without starting the workflow again`,
					},
					{
						displayName: 'Ignore Sample Events',
						name: 'ignoreTestDeliveries',
						type: 'boolean',
						default: false,
						description:
							'Whether sample events (sent with "Send Test Event" in Workforce Management; their items say sample_event: true) are acknowledged without starting the workflow',
					},
					{
						displayName: 'Recover Missed Events',
						name: 'recoverMissedEvents',
						type: 'boolean',
						default: true,
						description: `Whether, when n8n starts or publishes this workflow and when the trigger finds its endpoint disabled, events the API gave up delivering (after about 24 hours of retries, e.g. while n8n was down) are delivered again, once each and oldest first, judged from the API's delivery records. Covers events of the last ${RECOVERY_BOUNDS.maxAgeHours} hours, up to ${RECOVERY_BOUNDS.maxEvents} per start (the rest at the next), as long as the API still lists their deliveries (how long it keeps them is not documented). Events this trigger already ran are not run again. Not recovered: events that happened while the endpoint was disabled (never sent), and anything from before the workflow was unpublished (its endpoint and history are deleted).`,
					},
					{
						displayName: 'Signature Tolerance (Seconds)',
						name: 'signatureToleranceSeconds',
						type: 'number',
						typeOptions: {
							minValue: 1,
						},
						default: DEFAULT_TOLERANCE_SECONDS,
						description:
							'How far the signature timestamp of a delivery may differ from the clock of this n8n instance, in either direction, before the delivery is refused as a possible replay',
					},
				],
			},
		],
	};

	methods = {
		loadOptions: {
			[ENDPOINT_EVENT_TYPES_METHOD]: endpointEventTypeOptions,
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await lifecycle.checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await lifecycle.create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await lifecycle.delete.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}

	/** The schedule that keeps the endpoint enabled (recovery/endpointWatch.ts). */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return watchEndpoint.call(this);
	}

	/**
	 * The delivery's items, as they came from `webhook()`. n8n runs a node's `execute()` before its
	 * `trigger()`: without this, an execution started by a test delivery ("Listen for test event")
	 * would call `trigger()` instead of passing the items through.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [passDeliveryThrough.call(this, this.continueOnFail())];
	}
}
