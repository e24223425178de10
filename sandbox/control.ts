import type { FastifyInstance } from 'fastify';

import { isoTimestamp, MAX_CLOCK_OFFSET_SECONDS } from './clock';
import type { Mode } from './config';
import { BROKEN_PAGE_VARIANTS } from './control-state';
import type { Fault, FaultRequest } from './control-state';
import { ApiError, validationError } from './errors';
import { EVENT_TYPES, examplePayload, isInventedPayload, mergeIntoExample } from './events';
import { newMember } from './resources';
import { nonEmptyString, object } from './schemas';
import type { SandboxState } from './state';
import type { Tenant } from './store';
import { seedWorld } from './world';

const mode = { type: 'string', enum: ['live', 'test'] };

function findTenant(state: SandboxState, slug: string, tenantMode: Mode): Tenant {
	const tenant = state.store.tenant(slug, tenantMode);
	if (!tenant)
		throw new ApiError('not_found', `No organization with slug ${slug} in the sandbox config`);
	return tenant;
}

interface TenantQuery {
	organization?: string;
	mode?: Mode;
}

/** `?organization=acme&mode=live`, each optional: which tenants a control answer covers. */
const tenantQuery = { querystring: object({ organization: nonEmptyString, mode }) };

function selectTenants(state: SandboxState, query: TenantQuery): Tenant[] {
	return state.store
		.allTenants()
		.filter(
			(tenant) =>
				(query.organization === undefined || tenant.organization.slug === query.organization) &&
				(query.mode === undefined || tenant.mode === query.mode),
		);
}

/** The selected tenants' deliveries, newest first, with what the API does not show. */
function deliveriesOf(tenants: Tenant[]) {
	return tenants
		.flatMap((tenant) => tenant.deliveries.values().map((delivery) => ({ tenant, delivery })))
		.sort((a, b) => b.delivery.seq - a.delivery.seq)
		.map(({ tenant, delivery }) => ({
			...delivery.resource,
			organization: tenant.organization.slug,
			is_test: delivery.isTest,
			next_attempt_at:
				delivery.nextAttemptAt === null ? null : isoTimestamp(delivery.nextAttemptAt),
		}));
}

/** Bounds of the fault interface: enough for any test, too little to wedge the sandbox. */
const MAX_FAULT_COUNT = 10_000;
const MAX_PENDING_FAULTS = 100;
const MAX_RETRY_AFTER_SECONDS = 86_400;
const MAX_SLOW_BODY_SECONDS = 600;
const DEFAULT_SLOW_BODY_SECONDS = 120;

const faultCount = { type: 'integer', minimum: 1, maximum: MAX_FAULT_COUNT };

/** A status fault (`kind` may be left out) or a `repeat_cursor` fault. */
const faultBody = {
	if: { type: 'object', properties: { kind: { const: 'repeat_cursor' } }, required: ['kind'] },
	then: object({ kind: { const: 'repeat_cursor' }, count: faultCount, path: nonEmptyString }, [
		'kind',
		'count',
	]),
	else: object(
		{
			kind: {
				type: 'string',
				enum: ['status', 'repeat_cursor', 'broken_page', 'reset', 'slow_body', 'late_answer'],
			},
			status: { type: 'integer', enum: [429, 500, 503] },
			count: faultCount,
			retry_after: { type: 'integer', minimum: 0, maximum: MAX_RETRY_AFTER_SECONDS },
			path: nonEmptyString,
		},
		['status', 'count'],
	),
};

/** The fault kinds that stand for a broken API rather than a refusing one. */
const brokenFaultBody = {
	if: { type: 'object', properties: { kind: { const: 'broken_page' } }, required: ['kind'] },
	then: object(
		{
			kind: { const: 'broken_page' },
			variant: { type: 'string', enum: [...BROKEN_PAGE_VARIANTS] },
			count: faultCount,
			path: nonEmptyString,
		},
		['kind', 'variant', 'count'],
	),
	else: object(
		{
			kind: { const: 'reset' },
			count: faultCount,
			after: { type: 'integer', minimum: 0, maximum: MAX_FAULT_COUNT },
			hold: { type: 'boolean' },
			path: nonEmptyString,
		},
		['kind', 'count'],
	),
};

const slowFields = {
	count: faultCount,
	seconds: { type: 'integer', minimum: 1, maximum: MAX_SLOW_BODY_SECONDS },
	path: nonEmptyString,
};

/**
 * `slow_body` and `late_answer`: the answer comes `seconds` later; a `late_answer` with `hold`
 * comes when released instead, so it takes no `seconds` (refused in faultOf, naming the field).
 */
const slowFaultBody = {
	if: { type: 'object', properties: { kind: { const: 'slow_body' } }, required: ['kind'] },
	then: object({ kind: { const: 'slow_body' }, ...slowFields }, ['kind', 'count']),
	else: object({ kind: { const: 'late_answer' }, ...slowFields, hold: { type: 'boolean' } }, [
		'kind',
		'count',
	]),
};

const anyFaultBody = {
	if: {
		type: 'object',
		properties: { kind: { enum: ['slow_body', 'late_answer'] } },
		required: ['kind'],
	},
	then: slowFaultBody,
	else: {
		if: {
			type: 'object',
			properties: { kind: { enum: ['broken_page', 'reset'] } },
			required: ['kind'],
		},
		then: brokenFaultBody,
		else: faultBody,
	},
};

/** The fault a validated `POST /faults` body asks for. */
function faultOf(body: FaultRequest): Fault {
	const path = body.path ?? null;
	if (body.kind === 'repeat_cursor') return { kind: 'repeat_cursor', remaining: body.count, path };
	if (body.kind === 'broken_page') {
		return { kind: 'broken_page', variant: body.variant, remaining: body.count, path };
	}
	if (body.kind === 'slow_body' || body.kind === 'late_answer') {
		const slow = {
			seconds: body.seconds ?? DEFAULT_SLOW_BODY_SECONDS,
			remaining: body.count,
			path,
		};
		if (body.kind === 'slow_body') return { kind: body.kind, ...slow };
		if (body.hold && body.seconds !== undefined) {
			throw validationError([
				{
					field: 'seconds',
					message: 'cannot be given with hold: a held answer waits for its release',
				},
			]);
		}
		return { kind: body.kind, hold: body.hold ?? false, ...slow };
	}
	if (body.kind === 'reset')
		return {
			kind: 'reset',
			after: body.after ?? 0,
			hold: body.hold ?? false,
			remaining: body.count,
			path,
		};
	return {
		kind: 'status',
		status: body.status,
		remaining: body.count,
		retry_after: body.retry_after ?? 1,
		path,
	};
}

/** The control interface (no API key): data, clock, faults, request log and delivery settling. */
export async function registerControlRoutes(
	control: FastifyInstance,
	state: SandboxState,
): Promise<void> {
	control.post('/reset', async () => {
		// the clock first: every other reset reads it
		state.clock.reset();
		await state.engine.stop();
		state.store.reset();
		state.faults.clear();
		state.heldAnswers.release();
		state.rateLimiter.reset();
		state.requestLog.length = 0;
		return { ok: true };
	});

	control.post(
		'/events',
		{
			schema: {
				body: object(
					{
						organization: nonEmptyString,
						mode,
						type: { type: 'string', enum: [...EVENT_TYPES] },
						data: { type: 'object' },
						example_overrides: { type: 'object' },
					},
					['organization', 'mode', 'type'],
				),
			},
		},
		async (request) => {
			const body = request.body as {
				organization: string;
				mode: Mode;
				type: string;
				data?: Record<string, unknown>;
				example_overrides?: Record<string, unknown>;
			};
			if (body.data !== undefined && body.example_overrides !== undefined) {
				throw validationError([
					{
						field: 'example_overrides',
						message:
							'goes with the example payload: leave out data, or leave out example_overrides',
					},
				]);
			}
			const tenant = findTenant(state, body.organization, body.mode);
			const data =
				body.data ??
				mergeIntoExample(
					examplePayload(body.type, state.clock.now(), tenant),
					body.example_overrides ?? {},
				);
			const { event, deliveryIds } = state.engine.emit(tenant, body.type, data);
			return {
				event,
				delivery_ids: deliveryIds,
				example_payload: body.data === undefined && isInventedPayload(body.type),
			};
		},
	);

	control.get('/clock', async () => ({ now: isoTimestamp(state.clock.now()) }));

	control.post(
		'/clock/advance',
		{
			schema: {
				body: object(
					{ seconds: { type: 'number', minimum: 0, maximum: MAX_CLOCK_OFFSET_SECONDS } },
					['seconds'],
				),
			},
		},
		async (request) => {
			const { seconds } = request.body as { seconds: number };
			if (seconds > state.clock.headroomSeconds()) {
				throw validationError([
					{
						field: 'seconds',
						message: `would take the clock more than ${MAX_CLOCK_OFFSET_SECONDS} s ahead of real time (it can advance ${Math.floor(state.clock.headroomSeconds())} s more; POST /__sandbox/reset sets it back)`,
					},
				]);
			}
			const now = state.clock.advance(seconds);
			state.engine.pump();
			return { now: isoTimestamp(now) };
		},
	);

	control.post('/faults', { schema: { body: anyFaultBody } }, async (request) => {
		const body = request.body as FaultRequest;
		if (state.faults.pending().length >= MAX_PENDING_FAULTS) {
			throw validationError([
				{
					field: 'body',
					message: `${MAX_PENDING_FAULTS} faults are already pending: DELETE /__sandbox/faults first`,
				},
			]);
		}
		state.faults.add(faultOf(body));
		return { faults: state.faults.pending() };
	});

	control.get('/faults', async () => ({ faults: state.faults.pending() }));

	control.post('/faults/release', async () => ({ released: state.heldAnswers.release() }));

	control.delete('/faults', async () => {
		state.faults.clear();
		return { faults: [] };
	});

	control.get('/requests', async () => ({ requests: state.requestLog }));

	control.delete('/requests', async () => {
		state.requestLog.length = 0;
		return { requests: [] };
	});

	control.post('/deliveries/settle', { schema: tenantQuery }, async (request) => {
		await state.engine.settle();
		return { deliveries: deliveriesOf(selectTenants(state, request.query as TenantQuery)) };
	});

	control.get('/deliveries', { schema: tenantQuery }, async (request) => ({
		deliveries: deliveriesOf(selectTenants(state, request.query as TenantQuery)),
	}));

	control.post(
		'/seed/members',
		{
			schema: {
				body: object(
					{
						organization: nonEmptyString,
						mode,
						count: { type: 'integer', minimum: 1, maximum: 1_000_000 },
					},
					['organization', 'mode', 'count'],
				),
			},
		},
		async (request) => {
			const body = request.body as { organization: string; mode: Mode; count: number };
			const tenant = findTenant(state, body.organization, body.mode);
			const now = state.store.now();
			const start = tenant.members.list.size;
			for (let index = 1; index <= body.count; index++) {
				const member = newMember({ business_name: `Seeded Member ${start + index}` }, now);
				tenant.members.add({ seq: state.store.seq(), resource: member });
			}
			return { created: body.count, total: tenant.members.list.size };
		},
	);

	control.post(
		'/seed/world',
		{ schema: { body: object({ organization: nonEmptyString, mode }, ['organization', 'mode']) } },
		async (request) => {
			const body = request.body as { organization: string; mode: Mode };
			const tenant = findTenant(state, body.organization, body.mode);
			seedWorld(tenant, state.store.now(), () => state.store.seq());
			return {
				members: tenant.members.list.size,
				customers: tenant.customers.list.size,
				sites: tenant.sites.list.size,
			};
		},
	);

	control.get('/endpoints', { schema: tenantQuery }, async (request) => ({
		endpoints: selectTenants(state, request.query as TenantQuery).flatMap((tenant) =>
			tenant.endpoints.values().map((endpoint) => ({
				...endpoint.resource,
				organization: tenant.organization.slug,
				secret: endpoint.secret,
				previous_secrets: endpoint.previousSecrets
					.filter((previous) => previous.expiresAt > state.clock.now())
					.map((previous) => ({
						secret: previous.secret,
						expires_at: isoTimestamp(previous.expiresAt),
					})),
			})),
		),
	}));

	control.get('/keys', async () => ({ keys: state.store.apiKeys() }));

	control.post(
		'/keys/rotate',
		{ schema: { body: object({ key: nonEmptyString }, ['key']) } },
		async (request) => {
			const { key } = request.body as { key: string };
			const rotated = state.store.rotateKey(key);
			if (!rotated) throw new ApiError('not_found', `No API key ${key}`);
			return { key: rotated, revoked: key };
		},
	);
}
