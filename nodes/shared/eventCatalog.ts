import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { API, apiRead } from './api';
import type { WorkforceApiContext, WorkforceListPage } from './transport';

/** The event types this organization's active modules can emit; the API does not page it. */
export async function getEventCatalog(this: WorkforceApiContext): Promise<IDataObject[]> {
	const catalog = (await apiRead.call(this, API.webhookEvents)) as unknown as WorkforceListPage;
	return catalog.data;
}

/** The API names site events `customer_location.*`; the nodes call that resource Site. */
export const SITE_EVENT_PREFIX = { api: 'customer_location', node: 'site' } as const;

/** An event type as people say it: `timesheet.approved` → "Timesheet Approved". */
export function eventTitle(type: string): string {
	return type
		.replace(new RegExp(`^${SITE_EVENT_PREFIX.api}\\.`), `${SITE_EVENT_PREFIX.node}.`)
		.split(/[._]/)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

/** The catalog as options of a dropdown: titled for people, the API's type kept as the value. */
export async function eventTypeOptions(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const catalog = await getEventCatalog.call(this);
	return catalog.map((entry) => ({
		name: eventTitle(entry.type as string),
		value: entry.type as string,
		description: `${entry.type as string}: ${entry.description as string}`,
	}));
}

/** The catalog, preceded by the subscription to every event type (`*`). */
export async function endpointEventTypeOptions(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		{ name: 'All Events', value: '*', description: 'Every event type, including future ones' },
		...(await eventTypeOptions.call(this)),
	];
}

/** The load-options method both nodes register for {@link endpointEventTypeOptions}. */
export const ENDPOINT_EVENT_TYPES_METHOD = 'getEndpointEventTypes';

/** The event picker of a webhook endpoint: All Events, then the catalog. */
export function endpointEventsProperty(description: string): INodeProperties {
	return {
		displayName: 'Event Names or IDs',
		name: 'events',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: ENDPOINT_EVENT_TYPES_METHOD },
		default: [],
		description: `${description}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}
