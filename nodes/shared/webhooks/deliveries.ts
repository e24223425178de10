/**
 * The API's webhook deliveries, for the action node's Webhook Delivery operations and for the
 * trigger's recovery of events the API gave up on.
 */
import type { IDataObject } from 'n8n-workflow';

import { API, apiList, apiListPage, apiWalk, apiWrite } from '../api';
import type { PageBudget, PageWalk, WorkforceApiContext, WorkforceListPage } from '../transport';

const DELIVERIES = API.webhookDeliveries;

export type DeliveryStatus = 'pending' | 'processing' | 'delivered' | 'failed' | 'dead';

/** The list's filters, as the API names them. */
export interface DeliveryFilters extends IDataObject {
	endpoint_id?: string;
	status?: DeliveryStatus;
	event_type?: string;
}

/** Up to `limit` deliveries matching `filters`, newest first; all of them when `limit` is undefined. */
export async function list(
	this: WorkforceApiContext,
	filters: DeliveryFilters = {},
	limit?: number,
): Promise<IDataObject[]> {
	return await apiList.call(this, DELIVERIES, filters, limit);
}

/**
 * One page of deliveries matching `filters` (at most 100, newest first), from `cursor` on: for a
 * list search, and for a look at the newest page alone. Paging of this list is not documented: a
 * reader of more pages walks them (`walk`), which stops where the paging breaks.
 */
export async function listPage(
	this: WorkforceApiContext,
	cursor: string | undefined,
	filters: DeliveryFilters = {},
): Promise<WorkforceListPage> {
	return await apiListPage.call(this, DELIVERIES, cursor, filters);
}

/**
 * The pages of deliveries matching `filters` (100 each, newest first), following `next_cursor`
 * within `budget`: for the recovery, which reads a walk cut short as far as it got.
 */
export function walk(
	this: WorkforceApiContext,
	filters: DeliveryFilters,
	budget: PageBudget,
): PageWalk {
	return apiWalk.call(this, DELIVERIES, filters, budget);
}

/** Queues a fresh delivery of the same event, with the same envelope id; answers `delivery_id`. */
export async function redeliver(
	this: WorkforceApiContext,
	deliveryId: string,
): Promise<IDataObject> {
	return await apiWrite.call(this, 'POST', DELIVERIES, { id: deliveryId, action: 'redeliver' });
}
