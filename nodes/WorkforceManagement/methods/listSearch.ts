import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { MAX_PAGE_SIZE, SCOPE, workforceApiRequest } from '../transport';
import type { WorkforceListPage } from '../transport';

/**
 * One page of a list endpoint as list-search results. The API has no text search, so `filter`
 * narrows each page by name; the editor asks for the next page with the returned cursor.
 */
async function searchList(
	context: ILoadOptionsFunctions,
	path: string,
	operationScope: string,
	toItem: (record: IDataObject) => INodeListSearchItems,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = (await workforceApiRequest.call(context, 'GET', path, {
		qs: { limit: MAX_PAGE_SIZE, ...(paginationToken ? { cursor: paginationToken } : {}) },
		operationScope,
	})) as WorkforceListPage;
	const needle = filter?.trim().toLowerCase();
	const results = page.data
		.map(toItem)
		.filter((item) => !needle || item.name.toLowerCase().includes(needle));
	const nextCursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
	return { results, paginationToken: nextCursor };
}

export async function searchMembers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/members',
		SCOPE.membersRead,
		(member) => ({
			name: member.display_name
				? `${member.business_name as string} (${member.display_name as string})`
				: (member.business_name as string),
			value: member.id as string,
		}),
		filter,
		paginationToken,
	);
}

export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/customers',
		SCOPE.customersRead,
		(customer) => ({ name: customer.name as string, value: customer.id as string }),
		filter,
		paginationToken,
	);
}

export async function searchSites(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/sites',
		SCOPE.customersRead,
		(site) => ({ name: site.name as string, value: site.id as string }),
		filter,
		paginationToken,
	);
}

export async function searchWebhookEndpoints(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/webhook-endpoints',
		SCOPE.webhooksRead,
		(endpoint) => ({
			name: endpoint.description
				? `${endpoint.description as string} (${endpoint.url as string})`
				: (endpoint.url as string),
			value: endpoint.id as string,
			url: endpoint.url as string,
		}),
		filter,
		paginationToken,
	);
}

export async function searchWebhookDeliveries(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/webhook-deliveries',
		SCOPE.webhooksRead,
		(delivery) => ({
			name: `${delivery.event_type as string} · ${delivery.status as string} · ${delivery.created_at as string}`,
			value: delivery.id as string,
		}),
		filter,
		paginationToken,
	);
}
