import type { INodeProperties } from 'n8n-workflow';

import * as customer from './customer';
import * as member from './member';
import * as organization from './organization';
import { operationOptions, resourceDescription } from './resourceDescription';
import * as site from './site';
import type { WorkforceOperation, WorkforceResource } from './types';
import * as webhookDelivery from './webhookDelivery';
import * as webhookEndpoint from './webhookEndpoint';
import * as webhookEvent from './webhookEvent';

/** The action node's resources, in the order of the Resource dropdown. */
export const resources = {
	customer,
	member,
	organization,
	site,
	webhookDelivery,
	webhookEndpoint,
	webhookEvent,
} satisfies Record<string, WorkforceResource>;

export type ResourceName = keyof typeof resources;

const defaultResource: ResourceName = 'member';

function hasOwn(record: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(record, key);
}

/** The operation module the `resource` and `operation` parameters name, if the registry has it. */
export function findOperation(resource: string, operation: string): WorkforceOperation | undefined {
	if (!hasOwn(resources, resource)) return undefined;
	const registered: WorkforceResource = resources[resource as ResourceName];
	return registered.operations.find((module) => module.option.value === operation);
}

/** The Resource dropdown, listing the registry. */
export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: Object.entries(resources).map(([value, resource]) => ({
		name: resource.displayName,
		value,
	})),
	default: defaultResource,
};

/**
 * The canvas subtitle: the picked operation's action text ("Get a member"), looked up by
 * `<resource>.<operation>` in a map built from the operations' dropdown entries, so the editor
 * shows what a person picked rather than internal values ("get: member").
 */
export function operationSubtitle(): string {
	const actions: Record<string, string> = {};
	for (const [resourceName, resource] of Object.entries(resources)) {
		for (const option of operationOptions(resource)) {
			actions[`${resourceName}.${option.value}`] = option.action;
		}
	}
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}

/** Every resource's Operation dropdown, operation fields and Output choice. */
export const resourceDescriptions: INodeProperties[] = Object.entries(resources).flatMap(
	([name, resource]) => resourceDescription(name, resource),
);
