import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources, router } from './actions/router';
import { listSearch, loadOptions } from './methods';

export class WorkforceManagement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workforce Management',
		name: 'workforceManagement',
		icon: { light: 'file:workforceManagement.svg', dark: 'file:workforceManagement.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage members, customers, sites and webhooks of a Workforce Management organization',
		defaults: {
			name: 'Workforce Management',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'workforceManagementApi',
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Customer', value: 'customer' },
					{ name: 'Member', value: 'member' },
					{ name: 'Organization', value: 'organization' },
					{ name: 'Site', value: 'site' },
					{ name: 'Webhook Delivery', value: 'webhookDelivery' },
					{ name: 'Webhook Endpoint', value: 'webhookEndpoint' },
					{ name: 'Webhook Event', value: 'webhookEvent' },
				],
				default: 'member',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Settings → On Error → Continue: the router then turns a failed item into an error item
		// (paired with its input item) instead of stopping; otherwise it throws an error carrying
		// the failing item's itemIndex.
		const continueOnFail = this.continueOnFail();
		return await router.call(this, { continueOnFail });
	}
}
