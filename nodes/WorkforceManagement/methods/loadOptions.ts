import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { workforceEventCatalog } from '../transport';

/** The event catalog: the types this organization's active modules can emit. */
export async function getEventTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const catalog = await workforceEventCatalog.call(this);
	return catalog.map((entry) => ({
		name: entry.type as string,
		value: entry.type as string,
		description: entry.description as string,
	}));
}

/** The catalog, preceded by the subscription to every event type (`*`). */
export async function getEndpointEventTypes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		{ name: 'All Events', value: '*', description: 'Every event type, including future ones' },
		...(await getEventTypes.call(this)),
	];
}
