import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE, SCOPE, workforceApiRequest } from '../transport';
import type { WorkforceListPage } from '../transport';

type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * The list search of the records at `path`, one page at a time. The API has no text search, so
 * `filter` narrows each page by name; the editor asks for the next page with the returned cursor.
 */
function searchResource(
	path: string,
	operationScope: string,
	toResult: (record: IDataObject) => INodeListSearchItems,
): ListSearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = (await workforceApiRequest.call(this, 'GET', path, {
			qs: { limit: MAX_PAGE_SIZE, ...(paginationToken ? { cursor: paginationToken } : {}) },
			operationScope,
		})) as WorkforceListPage;
		const needle = filter?.trim().toLowerCase();
		const results = page.data
			.map(toResult)
			.filter((item) => !needle || item.name.toLowerCase().includes(needle));
		const nextCursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
		return { results, paginationToken: nextCursor };
	};
}

/** A record listed under its `name`, picked by its `id`. */
function toNameAndId(record: IDataObject): INodeListSearchItems {
	return { name: record.name as string, value: record.id as string };
}

export const searchMembers = searchResource('/members', SCOPE.membersRead, (member) => ({
	name: member.display_name
		? `${member.business_name as string} (${member.display_name as string})`
		: (member.business_name as string),
	value: member.id as string,
}));

export const searchCustomers = searchResource('/customers', SCOPE.customersRead, toNameAndId);

export const searchSites = searchResource('/sites', SCOPE.customersRead, toNameAndId);

export const searchWebhookEndpoints = searchResource(
	'/webhook-endpoints',
	SCOPE.webhooksRead,
	(endpoint) => ({
		name: endpoint.description
			? `${endpoint.description as string} (${endpoint.url as string})`
			: (endpoint.url as string),
		value: endpoint.id as string,
		url: endpoint.url as string,
	}),
);

export const searchWebhookDeliveries = searchResource(
	'/webhook-deliveries',
	SCOPE.webhooksRead,
	(delivery) => ({
		name: `${delivery.event_type as string} · ${delivery.status as string} · ${delivery.created_at as string}`,
		value: delivery.id as string,
	}),
);
