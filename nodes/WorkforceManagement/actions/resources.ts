import type { INodeProperties } from 'n8n-workflow';

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

/** Every resource's Operation dropdown and operation fields. */
export const resourceDescriptions: INodeProperties[] = Object.values(resources).flatMap(
	(resource) => resource.description,
);
