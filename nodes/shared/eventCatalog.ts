import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { API, apiRead } from './api';
import type { WorkforceApiContext, WorkforceListPage } from './transport';

/** The event types this organization's active modules can emit; the API does not page it. */
export async function getEventCatalog(this: WorkforceApiContext): Promise<IDataObject[]> {
	const catalog = (await apiRead.call(this, API.webhookEvents)) as unknown as WorkforceListPage;
	return catalog.data;
}

/**
 * An event type as people say it: `timesheet.approved` → "Timesheet Approved". The API names site
 * events `customer_location.*`; the node calls that resource Site, and so does its title.
 */
export function eventTitle(type: string): string {
	return type
		.replace(/^customer_location\./, 'site.')
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
