/** The API operations on webhook deliveries; mirrors nodes/WorkforceManagement/actions/webhookDelivery/. */
import { ApiError } from '../errors';
import * as schemas from '../schemas';
import type { Operation } from './handlers';
import { byId, listHandler } from './handlers';

export const webhookDeliveryOperations: Operation[] = [
	{
		method: 'GET',
		path: '/webhook-deliveries',
		operationId: 'webhookDeliveries.list',
		summary: "List recent delivery attempts in the key's mode, newest first",
		scope: 'webhooks:read',
		status: 200,
		schema: { querystring: schemas.deliveryListQuery },
		response: schemas.listOf(schemas.deliveryResponse),
		handler: listHandler('deliveries', ['endpoint_id', 'status', 'event_type']),
	},
	{
		method: 'POST',
		path: '/webhook-deliveries/:id/redeliver',
		operationId: 'webhookDeliveries.redeliver',
		summary: 'Queue a fresh delivery of the same event (same envelope id)',
		scope: 'webhooks:write',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.redeliverResponse,
		handler: ({ tenant, params, engine }) => {
			const original = tenant.deliveries.get(params.id);
			const endpoint = tenant.endpoints.get(original.resource.endpoint_id);
			if (!endpoint.resource.enabled) {
				throw new ApiError(
					'endpoint_disabled',
					`Webhook endpoint ${endpoint.resource.id} is disabled: enable it (PATCH enabled true) before redelivering`,
				);
			}
			return { delivery_id: engine.redeliver(tenant, original).resource.id };
		},
	},
];
