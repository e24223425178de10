import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { endpointEventTypeOptions } from '../shared/eventCatalog';
import { CREDENTIAL_TYPE } from '../shared/transport';
import * as webhookEndpoints from '../shared/webhookEndpoints';
import { receiveDelivery, type TriggerStaticData, triggerStaticData } from './delivery';
import { forgetAcceptedEnvelopes } from './duplicates';
import {
	createEndpoint,
	deleteEndpoint,
	deleteOwnEndpoints,
	fetchEndpoint,
	isOwnEndpoint,
	reconcile,
	type RemoteEndpoint,
	wantedRegistration,
} from './registration';
import { forgetOpenedSecret, openStoredSecret, sealSecret } from './secretStore';
import { DEFAULT_TOLERANCE_SECONDS } from './signature';

/**
 * The endpoint static data names, if it still exists and is this workflow's. One that belongs to
 * another workflow (static data copied with a duplicated or imported workflow) is left alone, and
 * this workflow registers its own.
 */
async function storedOwnEndpoint(
	this: IHookFunctions,
	staticData: TriggerStaticData,
): Promise<RemoteEndpoint | undefined> {
	if (!staticData.endpointId) return undefined;
	const remote = await fetchEndpoint.call(this, staticData.endpointId);
	if (remote && !isOwnEndpoint(remote, this.getWorkflow().id ?? '')) {
		this.logger.warn(
			`Webhook endpoint ${remote.id} named in this trigger's static data belongs to another workflow; it is left alone`,
			{ workflowId: this.getWorkflow().id, node: this.getNode().name },
		);
		return undefined;
	}
	return remote;
}

function forgetRegistration(staticData: TriggerStaticData): void {
	forgetOpenedSecret(staticData.secret);
	delete staticData.endpointId;
	delete staticData.secret;
	delete staticData.url;
	delete staticData.events;
}

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
		// the events as the picker titles them (eventTitle): "Timesheet Approved, Site Created"
		subtitle:
			'={{ $parameter["events"].includes("*") ? "All Events" : $parameter["events"].join(", ").replace(/customer_location\\./g, "site.").replace(/[._]/g, " ").toTitleCase() }}',
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
				displayName: 'Event Names or IDs',
				name: 'events',
				type: 'multiOptions',
				typeOptions: {
					loadOptionsMethod: 'getEventTypes',
				},
				required: true,
				default: [],
				description:
					'The events that start the workflow. Only events of the modules active for the organization are offered. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether a retry or redelivery of an event already received (same event ID, accepted within the last 29 hours; at most the last 320 events are remembered) is acknowledged without starting the workflow again',
					},
					{
						displayName: 'Ignore Test Deliveries',
						name: 'ignoreTestDeliveries',
						type: 'boolean',
						default: false,
						description:
							'Whether test deliveries (sent with "Send Test Event" in Workforce Management) are acknowledged without starting the workflow',
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
			getEventTypes: endpointEventTypeOptions,
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const staticData = triggerStaticData(this);
				const wanted = wantedRegistration.call(this);
				const remote = await storedOwnEndpoint.call(this, staticData);

				// reconcile judges the secret in the clear; one that no longer opens (another API key) is lost
				const secret = await openStoredSecret.call(this, staticData);
				const action = reconcile({ ...staticData, secret }, remote, wanted);
				if (remote === undefined || action === 'create') {
					forgetRegistration(staticData);
					return false;
				}
				switch (action) {
					case 'keep':
						return true;
					case 'reenable':
						await webhookEndpoints.update.call(this, remote.id, { enabled: true });
						return true;
					case 'rekey': {
						const rolled = await webhookEndpoints.rollSecret.call(this, remote.id);
						staticData.secret = await sealSecret.call(this, remote.id, rolled);
						return true;
					}
					case 'replace':
						await deleteEndpoint.call(this, remote.id);
						forgetRegistration(staticData);
						return false;
				}
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const staticData = triggerStaticData(this);
				const wanted = wantedRegistration.call(this);
				await deleteOwnEndpoints.call(this, wanted.url);

				const endpoint = await createEndpoint.call(this, wanted);
				staticData.endpointId = endpoint.id;
				staticData.secret = await sealSecret.call(this, endpoint.id, endpoint.secret);
				staticData.url = wanted.url;
				staticData.events = wanted.events;
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = triggerStaticData(this);
				const remote = await storedOwnEndpoint.call(this, staticData);
				if (remote) await deleteEndpoint.call(this, remote.id);
				await deleteOwnEndpoints.call(this, this.getNodeWebhookUrl('default') as string);
				forgetRegistration(staticData);
				forgetAcceptedEnvelopes(staticData);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery.call(this);
	}
}
