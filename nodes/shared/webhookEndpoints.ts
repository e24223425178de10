/**
 * The API's webhook endpoints, for the action node's Webhook Endpoint operations and for the
 * trigger's registration: the only place that knows their path and the scopes they need.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	SCOPE,
	workforceApiListPage,
	workforceApiPaginate,
	workforceApiRequest,
} from './transport';
import type { WorkforceApiContext, WorkforceListPage } from './transport';

const PATH = '/webhook-endpoints';

function endpointPath(endpointId: string): string {
	return `${PATH}/${endpointId}`;
}

export async function get(this: WorkforceApiContext, endpointId: string): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, 'GET', endpointPath(endpointId), {
		operationScope: SCOPE.webhooksRead,
	})) as IDataObject;
}

/** Up to `limit` endpoints, all of them when `limit` is undefined. */
export async function list(this: WorkforceApiContext, limit?: number): Promise<IDataObject[]> {
	return await workforceApiPaginate.call(this, PATH, {}, limit, SCOPE.webhooksRead);
}

/** One page of endpoints, for a list search. */
export async function listPage(
	this: WorkforceApiContext,
	cursor: string | undefined,
): Promise<WorkforceListPage> {
	return await workforceApiListPage.call(this, PATH, cursor, SCOPE.webhooksRead);
}

/** Registers an endpoint; the response is the only one that carries the full signing secret. */
export async function create(this: WorkforceApiContext, body: IDataObject): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, 'POST', PATH, {
		body,
		operationScope: SCOPE.webhooksWrite,
	})) as IDataObject;
}

export async function update(
	this: WorkforceApiContext,
	endpointId: string,
	body: IDataObject,
): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, 'PATCH', endpointPath(endpointId), {
		body,
		operationScope: SCOPE.webhooksWrite,
	})) as IDataObject;
}

async function deleteEndpoint(this: WorkforceApiContext, endpointId: string): Promise<void> {
	await workforceApiRequest.call(this, 'DELETE', endpointPath(endpointId), {
		operationScope: SCOPE.webhooksWrite,
	});
}
export { deleteEndpoint as delete };

/** Replaces the signing secret; the previous one keeps signing for 24 hours. */
export async function rollSecret(this: WorkforceApiContext, endpointId: string): Promise<string> {
	const { secret } = (await workforceApiRequest.call(
		this,
		'POST',
		`${endpointPath(endpointId)}/roll-secret`,
		{ operationScope: SCOPE.webhooksWrite },
	)) as { secret: string };
	return secret;
}

/** Sends one test delivery, of `eventType` or of a type the endpoint subscribes to. */
export async function sendTest(
	this: WorkforceApiContext,
	endpointId: string,
	eventType?: string,
): Promise<IDataObject> {
	return (await workforceApiRequest.call(this, 'POST', `${endpointPath(endpointId)}/test`, {
		body: eventType ? { event_type: eventType } : {},
		operationScope: SCOPE.webhooksWrite,
	})) as IDataObject;
}
