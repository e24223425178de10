import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { API, apiListPage } from '../../shared/api';
import type { ApiPath } from '../../shared/api';
import type { WorkforceListPage } from '../../shared/transport';
import { readableDescription, webhookDeliveries, webhookEndpoints } from '../../shared/webhooks';

type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

type FetchPage = (
	this: ILoadOptionsFunctions,
	cursor: string | undefined,
) => Promise<WorkforceListPage>;

/** The pages of the list at `api`'s path. */
function pagesOf(api: ApiPath): FetchPage {
	return async function (this: ILoadOptionsFunctions, cursor: string | undefined) {
		return await apiListPage.call(this, api, cursor);
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

export const searchMembers = searchResource(pagesOf(API.members), (member) => ({
	name: member.display_name
		? `${member.business_name as string} (${member.display_name as string})`
		: (member.business_name as string),
	value: member.id as string,
}));

export const searchCustomers = searchResource(pagesOf(API.customers), toNameAndId);

export const searchSites = searchResource(pagesOf(API.sites), toNameAndId);

/** The events an endpoint receives, short enough for one line: "all events", "a, b, c +2 more". */
function eventsSummary(events: unknown): string {
	const types = Array.isArray(events) ? (events as string[]) : [];
	if (types.includes('*')) return 'all events';
	const shown = types.slice(0, 3).join(', ');
	return types.length > 3 ? `${shown} +${types.length - 3} more` : shown;
}

/**
 * "Payroll sync · timesheet.approved · https://…": the description first (for the trigger's
 * endpoints, the workflow's name), then events and URL; the URL first when there is no description.
 */
export const searchWebhookEndpoints = searchResource(webhookEndpoints.listPage, (endpoint) => {
	const url = endpoint.url as string;
	const description = endpoint.description
		? readableDescription(endpoint.description as string)
		: '';
	const disabled = endpoint.enabled === false ? ' (disabled)' : '';
	const events = eventsSummary(endpoint.events);
	return {
		name: description
			? `${description}${disabled} · ${events} · ${url}`
			: `${url}${disabled} · ${events}`,
		value: endpoint.id as string,
		url,
	};
});

export const searchWebhookDeliveries = searchResource(webhookDeliveries.listPage, (delivery) => ({
	name: `${delivery.event_type as string} · ${delivery.status as string} · ${delivery.created_at as string}`,
	value: delivery.id as string,
}));
