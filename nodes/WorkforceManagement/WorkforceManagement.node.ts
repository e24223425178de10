import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationSubtitle, resourceDescriptions, resourceSelector } from './actions/resources';
import { router } from './actions/router';
import { credentialTest, listSearch, loadOptions } from './methods';

export class WorkforceManagement implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workforce Management',
		name: 'workforceManagement',
		icon: { light: 'file:workforceManagement.svg', dark: 'file:workforceManagement.dark.svg' },
		group: ['transform'],
		// Version 2 only changes a default: its record operations output Simplified records.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: operationSubtitle(),
		// Used by the editor as it is; the codex's links get a query appended, which breaks a #fragment.
		documentationUrl: 'https://github.com/n8n-nodes-workforce-management/n8n-nodes-workforce-management#operations',
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
				// Literal names: n8n's lint (credential-test-required) reads them from the source.
				// The dialog's test is a function, because only a function can word its failures.
				name: 'workforceManagementApi',
				required: true,
				testedBy: 'workforceManagementApiTest',
			},
		],
		properties: [resourceSelector, ...resourceDescriptions],
	};

	methods = { credentialTest, listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Settings → On Error → Continue: the router then turns a failed item into an error item
		// (paired with its input item) instead of stopping; otherwise it throws an error carrying
		// the failing item's itemIndex.
		const continueOnFail = this.continueOnFail();
		return await router.call(this, { continueOnFail });
	}
}
