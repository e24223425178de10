import { randomUUID } from 'node:crypto';

import type { SandboxClock } from './clock';
import { isoTimestamp } from './clock';
import type { SandboxConfig, Scope } from './config';
import type { DeliveryEngine } from './deliveries';
import { PREVIOUS_SECRET_VALIDITY_MS } from './deliveries';
import { ApiError, validationError } from './errors';
import { EVENT_CATALOG, examplePayload } from './events';
import type {
	CustomerPatch,
	EndpointInput,
	EndpointPatch,
	MemberPatch,
	SiteInput,
	SitePatch,
} from './resources';
import { applyPatch, newCustomer, newMember, newSite } from './resources';
import * as schemas from './schemas';
import type { JsonSchema } from './schemas';
import type { RecordList } from './pagination';
import type { Collection, Store, Stored, Tenant } from './store';
import { newSigningSecret, secretPreview } from './store';

/** Query parameters after validation: `limit` is a number, booleans are booleans. */
type ValidatedQuery = Record<string, unknown> & { limit?: number; cursor?: string };

/** `Body` is what the operation's body schema lets through. */
export interface OperationContext<Body = unknown> {
	tenant: Tenant;
	params: { id: string };
	query: ValidatedQuery;
	body: Body;
	store: Store;
	engine: DeliveryEngine;
	clock: SandboxClock;
	config: SandboxConfig;
}

export interface Operation<Body = unknown> {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	/** Fastify path relative to /api/v1. */
	path: string;
	operationId: string;
	summary: string;
	scope: Scope;
	module?: 'members' | 'customers';
	status: 200 | 201 | 204;
	schema: { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema };
	/** The success body's schema (OpenAPI only; responses are not filtered through it). */
	response?: JsonSchema;
	handler(context: OperationContext<Body>): unknown;
}

const byId = { params: schemas.idParams };

type CollectionName = 'members' | 'customers' | 'sites' | 'endpoints' | 'deliveries';
type ResourceOf<K extends CollectionName> = ReturnType<Tenant[K]['values']>[number]['resource'];

/**
 * A newest-first page of one of the tenant's collections; each filter field present in the query
 * must equal the record's field of the same name.
 */
function listHandler<K extends CollectionName>(
	collection: K,
	filterFields: Array<keyof ResourceOf<K> & string>,
): Operation['handler'] {
	return ({ tenant, query }) => {
		const supplied = filterFields.filter((field) => query[field] !== undefined);
		const records = tenant[collection].list as unknown as RecordList<
			Stored<Record<string, unknown>>
		>;
		return records.page(
			{
				limit: query.limit,
				cursor: query.cursor,
				filter:
					supplied.length === 0
						? undefined
						: ({ resource }) => supplied.every((field) => resource[field] === query[field]),
			},
			(stored) => stored.resource,
		);
	};
}

function touch(resource: { updated_at: string }, store: Store): void {
	resource.updated_at = store.now();
}

/** GET by id: the record, or 404 for an id outside the caller's tenant. */
function getHandler(collection: CollectionName): Operation['handler'] {
	return ({ tenant, params }) => tenant[collection].get(params.id).resource;
}

type ResourceCollectionName = 'members' | 'customers' | 'sites';

/**
 * POST of a member, customer or site: the new record (from the validated body) is stored and
 * announced with `eventType`; `eventData` is the event's `data` when it differs from the record.
 */
function createHandler<K extends ResourceCollectionName, Input>(
	collection: K,
	newResource: (input: Input, now: string) => ResourceOf<K>,
	eventType: string,
	eventData: (resource: ResourceOf<K>) => object = (resource) => resource,
): Operation<Input>['handler'] {
	return ({ tenant, body, store, engine }) => {
		const resource = newResource(body, store.now());
		const records: Collection<ResourceOf<K>> = tenant[collection];
		records.add({ seq: store.seq(), resource });
		engine.emit(tenant, eventType, eventData(resource));
		return resource;
	};
}

/**
 * PATCH of a member, customer or site: only the supplied fields change; an empty body changes
 * nothing, so `updated_at` stays and no `eventType` event is emitted.
 */
function patchHandler<Patch extends object>(
	collection: ResourceCollectionName,
	eventType: string,
): Operation<Patch>['handler'] {
	return ({ tenant, params, body, store, engine }) => {
		const resource = tenant[collection].get(params.id).resource;
		if (applyPatch(resource, body)) {
			touch(resource, store);
			engine.emit(tenant, eventType, resource);
		}
		return resource;
	};
}

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

function assertCustomerExists(tenant: Tenant, customerId: string): void {
	if (!tenant.customers.find(customerId)) {
		throw validationError([
			{
				field: 'customer_id',
				message: `no customer with id ${customerId} exists in this organization`,
			},
		]);
	}
}

const createSite = createHandler('sites', newSite, 'customer_location.created');

export const OPERATIONS: Operation[] = [
	{
		method: 'GET',
		path: '/organization',
		operationId: 'organization.get',
		summary: 'Get the organization of the API key',
		scope: 'organization:read',
		status: 200,
		schema: {},
		response: schemas.organizationResponse,
		handler: ({ tenant }) => tenant.organization,
	},

	// Members
	{
		method: 'GET',
		path: '/members',
		operationId: 'members.list',
		summary: 'List members, newest first',
		scope: 'members:read',
		module: 'members',
		status: 200,
		schema: { querystring: schemas.memberListQuery },
		response: schemas.listOf(schemas.memberResponse),
		handler: listHandler('members', ['status', 'is_verified', 'is_active']),
	},
	{
		method: 'POST',
		path: '/members',
		operationId: 'members.create',
		summary: 'Create a member (status draft)',
		scope: 'members:write',
		module: 'members',
		status: 201,
		schema: { body: schemas.memberCreateBody },
		response: schemas.memberResponse,
		handler: createHandler('members', newMember, 'member.created', (member) => ({
			...member,
			source: 'api',
		})),
	},
	{
		method: 'GET',
		path: '/members/:id',
		operationId: 'members.get',
		summary: 'Get a member',
		scope: 'members:read',
		module: 'members',
		status: 200,
		schema: byId,
		response: schemas.memberResponse,
		handler: getHandler('members'),
	},
	{
		method: 'PATCH',
		path: '/members/:id',
		operationId: 'members.update',
		summary: 'Update a member (only supplied fields change)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.memberUpdateBody },
		response: schemas.memberResponse,
		handler: patchHandler<MemberPatch>('members', 'member.updated'),
	},
	{
		method: 'POST',
		path: '/members/:id/verify',
		operationId: 'members.verify',
		summary: 'Verify a member (is_verified true)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.memberResponse,
		handler: ({ tenant, params, store, engine }) => {
			const member = tenant.members.get(params.id).resource;
			member.is_verified = true;
			touch(member, store);
			engine.emit(tenant, 'member.verified', member);
			return member;
		},
	},
	{
		method: 'POST',
		path: '/members/:id/deactivate',
		operationId: 'members.deactivate',
		summary: 'Deactivate a member (is_active false, status inactive)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.memberResponse,
		handler: ({ tenant, params, store, engine }) => {
			const member = tenant.members.get(params.id).resource;
			member.is_active = false;
			member.status = 'inactive';
			touch(member, store);
			engine.emit(tenant, 'member.deactivated', member);
			return member;
		},
	},

	// Customers
	{
		method: 'GET',
		path: '/customers',
		operationId: 'customers.list',
		summary: 'List customers, newest first',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: { querystring: schemas.customerListQuery },
		response: schemas.listOf(schemas.customerResponse),
		handler: listHandler('customers', ['status']),
	},
	{
		method: 'POST',
		path: '/customers',
		operationId: 'customers.create',
		summary: 'Create a customer',
		scope: 'customers:write',
		module: 'customers',
		status: 201,
		schema: { body: schemas.customerCreateBody },
		response: schemas.customerResponse,
		handler: createHandler('customers', newCustomer, 'customer.created'),
	},
	{
		method: 'GET',
		path: '/customers/:id',
		operationId: 'customers.get',
		summary: 'Get a customer',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: byId,
		response: schemas.customerResponse,
		handler: getHandler('customers'),
	},
	{
		method: 'PATCH',
		path: '/customers/:id',
		operationId: 'customers.update',
		summary: 'Update a customer (only supplied fields change)',
		scope: 'customers:write',
		module: 'customers',
		status: 200,
		schema: { ...byId, body: schemas.customerUpdateBody },
		response: schemas.customerResponse,
		handler: patchHandler<CustomerPatch>('customers', 'customer.updated'),
	},

	// Sites
	{
		method: 'GET',
		path: '/sites',
		operationId: 'sites.list',
		summary: 'List sites, newest first',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: { querystring: schemas.siteListQuery },
		response: schemas.listOf(schemas.siteResponse),
		handler: listHandler('sites', ['customer_id', 'is_active']),
	},
	{
		method: 'POST',
		path: '/sites',
		operationId: 'sites.create',
		summary: "Create a site for one of the organization's customers",
		scope: 'customers:write',
		module: 'customers',
		status: 201,
		schema: { body: schemas.siteCreateBody },
		response: schemas.siteResponse,
		handler: (context: OperationContext<SiteInput>) => {
			assertCustomerExists(context.tenant, context.body.customer_id);
			return createSite(context);
		},
	},
	{
		method: 'GET',
		path: '/sites/:id',
		operationId: 'sites.get',
		summary: 'Get a site',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: byId,
		response: schemas.siteResponse,
		handler: getHandler('sites'),
	},
	{
		method: 'PATCH',
		path: '/sites/:id',
		operationId: 'sites.update',
		summary: 'Update a site (only supplied fields change)',
		scope: 'customers:write',
		module: 'customers',
		status: 200,
		schema: { ...byId, body: schemas.siteUpdateBody },
		response: schemas.siteResponse,
		handler: patchHandler<SitePatch>('sites', 'customer_location.updated'),
	},

	// Webhook endpoints
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
				previousSecret: null,
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
			const expiresAt = clock.now() + PREVIOUS_SECRET_VALIDITY_MS;
			endpoint.previousSecret = { secret: endpoint.secret, expiresAt };
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
			return engine.sendTest(tenant, endpoint, type, examplePayload(type, clock.now()));
		},
	},

	// Deliveries and catalog
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
