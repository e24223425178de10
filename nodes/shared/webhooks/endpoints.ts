/**
 * The API's webhook endpoints, for the action node's Webhook Endpoint operations and for the
 * trigger's registration.
 */
import type { IDataObject } from 'n8n-workflow';

import { API, apiList, apiListPage, apiRead, apiWrite } from '../api';
import type { WorkforceApiContext, WorkforceListPage } from '../transport';

const ENDPOINTS = API.webhookEndpoints;

export async function get(this: WorkforceApiContext, endpointId: string): Promise<IDataObject> {
	return await apiRead.call(this, ENDPOINTS, { id: endpointId });
}

/** Up to `limit` endpoints, all of them when `limit` is undefined. */
export async function list(this: WorkforceApiContext, limit?: number): Promise<IDataObject[]> {
	return await apiList.call(this, ENDPOINTS, {}, limit);
}

/** One page of endpoints, for a list search. */
export async function listPage(
	this: WorkforceApiContext,
	cursor: string | undefined,
): Promise<WorkforceListPage> {
	return await apiListPage.call(this, ENDPOINTS, cursor);
}

/** Registers an endpoint; the response is the only one that carries the full signing secret. */
export async function create(this: WorkforceApiContext, body: IDataObject): Promise<IDataObject> {
	return await apiWrite.call(this, 'POST', ENDPOINTS, { body });
}

export async function update(
	this: WorkforceApiContext,
	endpointId: string,
	body: IDataObject,
): Promise<IDataObject> {
	return await apiWrite.call(this, 'PATCH', ENDPOINTS, { id: endpointId, body });
}

async function deleteEndpoint(this: WorkforceApiContext, endpointId: string): Promise<void> {
	await apiWrite.call(this, 'DELETE', ENDPOINTS, { id: endpointId });
}
export { deleteEndpoint as delete };

/** Replaces the signing secret; the previous one keeps signing for 24 hours. */
export async function rollSecret(this: WorkforceApiContext, endpointId: string): Promise<string> {
	const { secret } = await apiWrite.call(this, 'POST', ENDPOINTS, {
		id: endpointId,
		action: 'roll-secret',
	});
	return secret as string;
}

/** Sends one test delivery, of `eventType` or of a type the endpoint subscribes to. */
export async function sendTest(
	this: WorkforceApiContext,
	endpointId: string,
	eventType?: string,
): Promise<IDataObject> {
	return await apiWrite.call(this, 'POST', ENDPOINTS, {
		id: endpointId,
		action: 'test',
		body: eventType ? { event_type: eventType } : {},
	});
}
