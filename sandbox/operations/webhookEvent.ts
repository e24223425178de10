/** The API operations on the webhook event catalog; mirrors nodes/WorkforceManagement/actions/webhookEvent/. */
import { EVENT_CATALOG } from '../events';
import * as schemas from '../schemas';
import type { Operation } from './handlers';

export const webhookEventOperations: Operation[] = [
	{
		method: 'GET',
		path: '/webhook-events',
		operationId: 'webhookEvents.list',
		summary: "List the subscribable event types of the organization's active modules",
		scope: 'webhooks:read',
		status: 200,
		schema: { querystring: schemas.object({}) },
		response: schemas.listOf(schemas.catalogEntryResponse),
		handler: ({ tenant }) => ({
			data: EVENT_CATALOG.filter((entry) => tenant.hasModule(entry.module_gate)),
			has_more: false,
			next_cursor: null,
		}),
	},
];
