import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { SCOPE, workforceApiListPage } from '../../shared/transport';
import type { WorkforceListPage } from '../../shared/transport';
import * as webhookEndpoints from '../../shared/webhookEndpoints';
import { PATH } from '../actions/paths';

type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

type FetchPage = (
	this: ILoadOptionsFunctions,
	cursor: string | undefined,
) => Promise<WorkforceListPage>;

/** The pages of the list at `path`. */
function pagesOf(path: string, operationScope: string): FetchPage {
	return async function (this: ILoadOptionsFunctions, cursor: string | undefined) {
		return await workforceApiListPage.call(this, path, cursor, operationScope);
	};
}

/**
 * A list search over `fetchPage`, one page at a time. The API has no text search, so `filter`
 * narrows each page by name; the editor asks for the next page with the returned cursor.
 */
function searchResource(
	fetchPage: FetchPage,
	toResult: (record: IDataObject) => INodeListSearchItems,
): ListSearchMethod {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const page = await fetchPage.call(this, paginationToken);
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

export const searchMembers = searchResource(pagesOf(PATH.members, SCOPE.membersRead), (member) => ({
	name: member.display_name
		? `${member.business_name as string} (${member.display_name as string})`
		: (member.business_name as string),
	value: member.id as string,
}));

export const searchCustomers = searchResource(
	pagesOf(PATH.customers, SCOPE.customersRead),
	toNameAndId,
);

export const searchSites = searchResource(pagesOf(PATH.sites, SCOPE.customersRead), toNameAndId);

export const searchWebhookEndpoints = searchResource(webhookEndpoints.listPage, (endpoint) => ({
	name: endpoint.description
		? `${endpoint.description as string} (${endpoint.url as string})`
		: (endpoint.url as string),
	value: endpoint.id as string,
	url: endpoint.url as string,
}));

export const searchWebhookDeliveries = searchResource(
	pagesOf(PATH.webhookDeliveries, SCOPE.webhooksRead),
	(delivery) => ({
		name: `${delivery.event_type as string} · ${delivery.status as string} · ${delivery.created_at as string}`,
		value: delivery.id as string,
	}),
);
