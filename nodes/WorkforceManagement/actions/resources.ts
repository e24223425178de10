import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { outputProperties } from './common/output';
import * as customer from './customer';
import * as member from './member';
import * as organization from './organization';
import * as site from './site';
import type { WorkforceResource } from './types';
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

export type OperationName<Resource extends ResourceName> =
	keyof (typeof resources)[Resource]['operations'];

const defaultResource: ResourceName = 'member';

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
 * `<resource>.<operation>` in a map built from the Operation dropdowns, so the editor shows what
 * a person picked rather than internal values ("get: member").
 */
export function operationSubtitle(): string {
	const actions: Record<string, string> = {};
	for (const [resourceName, resource] of Object.entries(resources)) {
		const selector = resource.description.find((property) => property.name === 'operation');
		for (const option of (selector?.options ?? []) as INodePropertyOptions[]) {
			actions[`${resourceName}.${String(option.value)}`] = option.action ?? option.name;
		}
	}
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + "." + $parameter["operation"]] }}`;
}

/** Every resource's Operation dropdown and operation fields, then its Output choice. */
export const resourceDescriptions: INodeProperties[] = Object.entries(resources).flatMap(
	([name, resource]: [string, WorkforceResource]) => [
		...resource.description,
		...(resource.output ? outputProperties(name, resource.output) : []),
	],
);
