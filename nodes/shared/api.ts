/**
 * The API's paths, each with the scope its reads (GET) and writes need: the one place that knows
 * them. Every request names an entry of {@link API}, and the scope a 403 error names follows from
 * the method, so no call site writes a path or a scope of its own.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	walkPages,
	workforceApiListPage,
	workforceApiPaginate,
	workforceApiRequest,
} from './transport';
import type { PageBudget, PageWalk, WorkforceApiContext, WorkforceListPage } from './transport';

export interface ApiPath {
	path: string;
	/** The scope of a GET. */
	read: string;
	/** The scope of a POST, PATCH or DELETE; none where the API only reads. */
	write?: string;
}

type WritableApiPath = ApiPath & { write: string };

const MEMBERS = { read: 'members:read', write: 'members:write' } as const;
// Sites are customer locations: the API guards them with the customers' scopes.
const CUSTOMERS = { read: 'customers:read', write: 'customers:write' } as const;
const WEBHOOKS = { read: 'webhooks:read', write: 'webhooks:write' } as const;

export const API = {
	organization: { path: '/organization', read: 'organization:read' },
	members: { path: '/members', ...MEMBERS },
	customers: { path: '/customers', ...CUSTOMERS },
	sites: { path: '/sites', ...CUSTOMERS },
	webhookEndpoints: { path: '/webhook-endpoints', ...WEBHOOKS },
	webhookDeliveries: { path: '/webhook-deliveries', ...WEBHOOKS },
	webhookEvents: { path: '/webhook-events', read: WEBHOOKS.read },
} as const satisfies Record<string, ApiPath>;

/** A record of an API path (`/members/<id>`) or an action on it (`/members/<id>/verify`). */
export interface ApiTarget {
	id?: string;
	action?: string;
}

function pathOf(api: ApiPath, { id, action }: ApiTarget): string {
	return [api.path, id, action].filter((part) => part !== undefined).join('/');
}

/** GET the path, or one record under it, with the path's read scope. */
export async function apiRead(
	this: WorkforceApiContext,
	api: ApiPath,
	target: ApiTarget = {},
): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, 'GET', pathOf(api, target), {
		operationScope: api.read,
	})) as IDataObject;
}

/** POST, PATCH or DELETE the path, a record or an action, with the path's write scope. */
export async function apiWrite(
	this: WorkforceApiContext,
	method: 'POST' | 'PATCH' | 'DELETE',
	api: WritableApiPath,
	target: ApiTarget & { body?: IDataObject } = {},
): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, method, pathOf(api, target), {
		body: target.body,
		operationScope: api.write,
	})) as IDataObject;
}

/** The records of a list path, up to `limit` (all of them when undefined); see the transport. */
export async function apiList(
	this: WorkforceApiContext,
	api: ApiPath,
	qs: IDataObject = {},
	limit?: number,
): Promise<IDataObject[]> {
	return await workforceApiPaginate.call(this, api.path, qs, limit, api.read);
}

/** One page of a list path (at most 100 records), from `cursor` on, matching `filters`. */
export async function apiListPage(
	this: WorkforceApiContext,
	api: ApiPath,
	cursor: string | undefined,
	filters: IDataObject = {},
): Promise<WorkforceListPage> {
	return await workforceApiListPage.call(this, api.path, cursor, api.read, filters);
}

/** A walk of a list path's pages matching `filters`, within `budget`; see the transport. */
export function apiWalk(
	this: WorkforceApiContext,
	api: ApiPath,
	filters: IDataObject,
	budget: PageBudget,
): PageWalk {
	return walkPages.call(this, api.path, { qs: filters, operationScope: api.read, budget });
}
