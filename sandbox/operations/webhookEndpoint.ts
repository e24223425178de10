/** The API operations on webhook endpoints; mirrors nodes/WorkforceManagement/actions/webhookEndpoint/. */
import { randomUUID } from 'node:crypto';

import { isoTimestamp } from '../clock';
import type { SandboxConfig } from '../config';
import { PREVIOUS_SECRET_VALIDITY_MS } from '../deliveries';
import { validationError } from '../errors';
import { examplePayload } from '../events';
import type { EndpointInput, EndpointPatch } from '../resources';
import { applyPatch } from '../resources';
import * as schemas from '../schemas';
import { newSigningSecret, secretPreview } from '../store';
import type { Operation, OperationContext } from './handlers';
import { byId, getHandler, listHandler, touch } from './handlers';

/**
 * A webhook URL as written: lower-case scheme, `//`, a host without user name or password, no
 * whitespace. `new URL()` alone would accept and silently rewrite `HTTPS://x`, `https:/x`,
 * ` https://x` and `https://user:pass@x`.
 */
const WEBHOOK_URL_SHAPE = /^https?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/;

function assertWebhookUrl(url: string, config: SandboxConfig, field = 'url'): void {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw validationError([{ field, message: 'must be an absolute URL' }]);
	}
	if (!WEBHOOK_URL_SHAPE.test(url)) {
		throw validationError([
			{
				field,
				message:
					'must be written as https://host/path: a lower-case scheme, no user name or password, no spaces',
			},
		]);
	}
	if (parsed.protocol === 'https:') return;
	const loopback =
		['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname) ||
		parsed.hostname.startsWith('127.');
	if (parsed.protocol === 'http:' && loopback && config.webhooks.allowInsecureUrls) return;
	throw validationError([
		{
			field,
			message: config.webhooks.allowInsecureUrls
				? 'must be an HTTPS URL (http:// is accepted only for a loopback host)'
				: 'must be an HTTPS URL',
		},
	]);
}

function assertEventList(events: string[] | undefined): void {
	if (events && events.includes('*') && events.length > 1) {
		throw validationError([
			{
				field: 'events',
				message: 'must hold either event types or the single element "*", not both',
			},
		]);
	}
}

export const webhookEndpointOperations: Operation[] = [
	{
		method: 'GET',
		path: '/webhook-endpoints',
		operationId: 'webhookEndpoints.list',
		summary: "List the organization's webhook endpoints in the key's mode",
		scope: 'webhooks:read',
		status: 200,
		schema: { querystring: schemas.listQuery() },
		response: schemas.listOf(schemas.endpointResponse),
		handler: listHandler('endpoints', []),
	},
	{
		method: 'POST',
		path: '/webhook-endpoints',
		operationId: 'webhookEndpoints.create',
		summary: 'Create a webhook endpoint (the only response carrying the full secret)',
		scope: 'webhooks:write',
		status: 201,
		schema: { body: schemas.endpointCreateBody },
		response: schemas.endpointCreatedResponse,
		handler: ({ tenant, body, store, config }: OperationContext<EndpointInput>) => {
			assertWebhookUrl(body.url, config);
			assertEventList(body.events);
			const now = store.now();
			const secret = newSigningSecret();
			const endpoint = tenant.endpoints.add({
				seq: store.seq(),
				secret,
				previousSecrets: [],
				resource: {
					id: randomUUID(),
					url: body.url,
					description: body.description ?? null,
					mode: tenant.mode,
					enabled: true,
					events: body.events,
					secret_preview: secretPreview(secret),
					consecutive_failures: 0,
					disabled_at: null,
					disabled_reason: null,
					last_delivery_at: null,
					last_success_at: null,
					created_at: now,
					updated_at: now,
				},
			});
			return { ...endpoint.resource, secret };
		},
	},
	{
		method: 'GET',
		path: '/webhook-endpoints/:id',
		operationId: 'webhookEndpoints.get',
		summary: 'Get a webhook endpoint (no secret)',
		scope: 'webhooks:read',
		status: 200,
		schema: byId,
		response: schemas.endpointResponse,
		handler: getHandler('endpoints'),
	},
	{
		method: 'PATCH',
		path: '/webhook-endpoints/:id',
		operationId: 'webhookEndpoints.update',
		summary: 'Update a webhook endpoint; enabled true clears the auto-disable state',
		scope: 'webhooks:write',
		status: 200,
		schema: { ...byId, body: schemas.endpointUpdateBody },
		response: schemas.endpointResponse,
		handler: ({ tenant, params, body, store, config }: OperationContext<EndpointPatch>) => {
			if (body.url !== undefined) assertWebhookUrl(body.url, config);
			assertEventList(body.events);
			const endpoint = tenant.endpoints.get(params.id).resource;
			const { enabled, ...fields } = body;
			applyPatch(endpoint, fields);
			if (enabled === true) {
				endpoint.enabled = true;
				endpoint.consecutive_failures = 0;
				endpoint.disabled_at = null;
				endpoint.disabled_reason = null;
			} else if (enabled === false && endpoint.enabled) {
				endpoint.enabled = false;
				endpoint.disabled_at = store.now();
				endpoint.disabled_reason = 'Disabled through the API';
			}
			if (Object.keys(body).length > 0) touch(endpoint, store);
			return endpoint;
		},
	},
	{
		method: 'DELETE',
		path: '/webhook-endpoints/:id',
		operationId: 'webhookEndpoints.delete',
		summary: 'Delete a webhook endpoint and its delivery history',
		scope: 'webhooks:write',
		status: 204,
		schema: byId,
		handler: ({ tenant, params }) => {
			tenant.endpoints.get(params.id);
			tenant.endpoints.delete((stored) => stored.resource.id === params.id);
			tenant.deliveries.delete((stored) => stored.resource.endpoint_id === params.id);
			return undefined;
		},
	},
	{
		method: 'POST',
		path: '/webhook-endpoints/:id/roll-secret',
		operationId: 'webhookEndpoints.rollSecret',
		summary: 'Roll the signing secret; the previous one keeps signing for 24 hours',
		scope: 'webhooks:write',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.rolledSecretResponse,
		handler: ({ tenant, params, store, clock }) => {
			const endpoint = tenant.endpoints.get(params.id);
			const nowMs = clock.now();
			const expiresAt = nowMs + PREVIOUS_SECRET_VALIDITY_MS;
			endpoint.previousSecrets = [
				...endpoint.previousSecrets.filter((previous) => previous.expiresAt > nowMs),
				{ secret: endpoint.secret, expiresAt },
			];
			endpoint.secret = newSigningSecret();
			endpoint.resource.secret_preview = secretPreview(endpoint.secret);
			touch(endpoint.resource, store);
			return {
				secret: endpoint.secret,
				previous_secret_expires_at: isoTimestamp(expiresAt),
			};
		},
	},
	{
		method: 'POST',
		path: '/webhook-endpoints/:id/test',
		operationId: 'webhookEndpoints.test',
		summary: 'Send one test delivery (X-Webhook-Test: true) with an example payload',
		scope: 'webhooks:write',
		status: 200,
		schema: { ...byId, body: schemas.endpointTestBody },
		response: schemas.testDeliveryResponse,
		handler: async ({
			tenant,
			params,
			body,
			engine,
			clock,
		}: OperationContext<{ event_type?: string }>) => {
			const endpoint = tenant.endpoints.get(params.id);
			const subscribed = endpoint.resource.events.find((type) => type !== '*');
			const type = body.event_type ?? subscribed ?? 'member.created';
			return engine.sendTest(tenant, endpoint, type, examplePayload(type, clock.now(), tenant));
		},
	},
];
