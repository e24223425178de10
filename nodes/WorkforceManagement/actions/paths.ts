/**
 * The API paths only the action node uses, each written once. The webhook endpoints and the event
 * catalog, which the trigger uses too, live in nodes/shared/.
 */
export const PATH = {
	organization: '/organization',
	members: '/members',
	customers: '/customers',
	sites: '/sites',
	webhookDeliveries: '/webhook-deliveries',
} as const;
