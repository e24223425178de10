/** What the per-resource operation tables share: the operation type and handler builders. */
import type { SandboxClock } from '../clock';
import type { SandboxConfig, Scope } from '../config';
import type { DeliveryEngine } from '../deliveries';
import type { RecordList } from '../pagination';
import { applyPatch } from '../resources';
import * as schemas from '../schemas';
import type { JsonSchema } from '../schemas';
import type { Collection, Store, Stored, Tenant } from '../store';

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

export const byId = { params: schemas.idParams };

type CollectionName = 'members' | 'customers' | 'sites' | 'endpoints' | 'deliveries';
type ResourceOf<K extends CollectionName> = ReturnType<Tenant[K]['values']>[number]['resource'];

/**
 * A newest-first page of one of the tenant's collections; each filter field present in the query
 * must equal the record's field of the same name.
 */
export function listHandler<K extends CollectionName>(
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

export function touch(resource: { updated_at: string }, store: Store): void {
	resource.updated_at = store.now();
}

/** GET by id: the record, or 404 for an id outside the caller's tenant. */
export function getHandler(collection: CollectionName): Operation['handler'] {
	return ({ tenant, params }) => tenant[collection].get(params.id).resource;
}

type ResourceCollectionName = 'members' | 'customers' | 'sites';

/**
 * POST of a member, customer or site: the new record (from the validated body) is stored and
 * announced with `eventType`; `eventData` is the event's `data` when it differs from the record.
 */
export function createHandler<K extends ResourceCollectionName, Input>(
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
export function patchHandler<Patch extends object>(
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
