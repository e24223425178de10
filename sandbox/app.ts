import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { SandboxClock } from './clock';
import type { SandboxConfig } from './config';
import type { LateAnswerFault, LoggedRequest } from './control-state';
import { API_PREFIX, FaultQueue, HELD_CONNECTION_MAX_MS, HeldAnswers } from './control-state';
import { registerControlRoutes } from './control';
import { DeliveryEngine } from './deliveries';
import { ApiError, detailsFromAjv, validationError } from './errors';
import { buildOpenApiDocument } from './openapi';
import type { Operation } from './operations';
import { OPERATIONS } from './operations';
import type { Page } from './pagination';
import { RateLimiter } from './rate-limit';
import type { SandboxState } from './state';
import type { JsonSchema } from './schemas';
import type { ApiKeyGrant } from './store';
import { Store } from './store';

declare module 'fastify' {
	interface FastifyContextConfig {
		operation?: Operation;
	}
	interface FastifyRequest {
		grant: ApiKeyGrant | null;
		logEntry: LoggedRequest | null;
		/** The `late_answer` fault this request's answer waits for, if any. */
		lateAnswer: LateAnswerFault | null;
	}
}

/** Fastify's default, stated: a larger body is answered 413 before it is parsed. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Benchmarks send hundreds of thousands of requests: keep the most recent ones. */
const MAX_LOGGED_REQUESTS = 10_000;

const FAULT_CODES = {
	429: 'rate_limited',
	500: 'internal_error',
	503: 'service_unavailable',
} as const;

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
	return reply.code(error.statusCode).headers(error.headers).send(error.toBody());
}

/** Query strings arrive as text: convert the integer and boolean parameters the schema declares. */
function coerceQuery(request: FastifyRequest): void {
	const schema = request.routeOptions.schema?.querystring as JsonSchema | undefined;
	const properties = (schema?.properties ?? {}) as Record<string, { type?: string }>;
	const query = request.query as Record<string, unknown>;
	for (const [name, value] of Object.entries(query)) {
		if (typeof value !== 'string') continue;
		const type = properties[name]?.type;
		if (type === 'integer' && /^-?\d+$/.test(value)) query[name] = Number(value);
		if (type === 'boolean' && (value === 'true' || value === 'false'))
			query[name] = value === 'true';
	}
}

function bearerKey(request: FastifyRequest): string | undefined {
	const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
	return match?.[1];
}

/** 401 → 429 → 403 (scope) → 403 (module): run before the body is even validated. */
function authorize(
	state: SandboxState,
	request: FastifyRequest,
	reply: FastifyReply,
	operation: Operation,
): void {
	const key = bearerKey(request);
	if (key === undefined) {
		throw new ApiError(
			'unauthorized',
			'Missing API key: send the header Authorization: Bearer <API key>',
		);
	}
	const grant = state.store.grant(key);
	if (!grant) throw new ApiError('unauthorized', 'Invalid API key: no such key exists');
	const { retryAfterSeconds, remaining } = state.rateLimiter.take(key);
	reply.header('X-RateLimit-Limit', String(state.config.rateLimit.requests));
	reply.header('X-RateLimit-Remaining', String(remaining));
	if (retryAfterSeconds > 0) {
		throw new ApiError(
			'rate_limited',
			`Rate limit of ${state.config.rateLimit.requests} requests per ${state.config.rateLimit.perSeconds} s exceeded: retry after ${retryAfterSeconds} s`,
			[],
			{ 'Retry-After': String(retryAfterSeconds) },
		);
	}
	if (!grant.key.scopes.includes(operation.scope)) {
		throw new ApiError(
			'insufficient_scope',
			`This API key lacks the scope ${operation.scope}, which ${operation.operationId} requires`,
		);
	}
	if (operation.module && !grant.tenant.hasModule(operation.module)) {
		throw new ApiError(
			'module_inactive',
			`The ${operation.module} module is not active for organization ${grant.tenant.organization.slug}, and ${operation.operationId} requires it`,
		);
	}
	request.grant = grant;
}

function isListPage(result: unknown): result is Page<unknown> {
	return typeof result === 'object' && result !== null && 'next_cursor' in result;
}

/**
 * An injected `repeat_cursor` fault: a list page asked with a cursor points back at that very
 * cursor, so a client following `next_cursor` is handed the same cursor twice.
 */
function repeatCursorIfInjected(
	state: SandboxState,
	request: FastifyRequest,
	result: unknown,
): unknown {
	const { cursor } = request.query as { cursor?: string };
	if (cursor === undefined || !isListPage(result)) return result;
	if (!state.faults.take('repeat_cursor', request.url.split('?')[0])) return result;
	return { ...result, has_more: true, next_cursor: cursor };
}

/**
 * An injected `broken_page` fault: a list page (with or without a cursor) that breaks the
 * documented contract in the way its variant names. `empty_page` skips the page's records but
 * hands out its real next cursor, so each broken page carries a cursor never seen before.
 */
function breakPageIfInjected(
	state: SandboxState,
	request: FastifyRequest,
	reply: FastifyReply,
	result: unknown,
): unknown {
	if (!isListPage(result)) return result;
	const fault = state.faults.take('broken_page', request.url.split('?')[0]);
	if (!fault) return result;
	switch (fault.variant) {
		case 'no_cursor':
			return { ...result, has_more: true, next_cursor: null };
		case 'empty_cursor':
			return { ...result, has_more: true, next_cursor: '' };
		case 'missing_cursor':
			return { data: result.data, has_more: true };
		case 'empty_page':
			return result.next_cursor === null ? result : { ...result, data: [], has_more: true };
		case 'over_limit':
			return { ...result, data: result.data.flatMap((record) => [record, record]) };
		case 'no_data':
			return { has_more: result.has_more, next_cursor: result.next_cursor };
		case 'no_has_more':
			return { data: result.data, next_cursor: result.next_cursor };
		case 'not_json':
			reply.type('text/html; charset=utf-8');
			return '<html><body><h1>502 Bad Gateway</h1></body></html>';
	}
}

/** Answers 200 at once, then a space a second, and `{}` after `seconds`. */
function trickleBody(reply: FastifyReply, seconds: number): void {
	const response = reply.raw;
	response.writeHead(200, { 'content-type': 'application/json' });
	let sent = 0;
	const tick = (): void => {
		if (response.destroyed) return;
		sent += 1;
		if (sent >= seconds) {
			response.end('{}');
			return;
		}
		response.write(' ');
		setTimeout(tick, 1000).unref();
	};
	response.write(' ');
	setTimeout(tick, 1000).unref();
}

function registerApi(app: FastifyInstance, state: SandboxState): void {
	app.register(
		async (api) => {
			api.addHook('onRequest', async (request, reply) => {
				const url = new URL(request.url, 'http://sandbox');
				const entry: LoggedRequest = {
					method: request.method,
					path: url.pathname,
					query: { ...(request.query as object) },
					body: null,
					headers: { ...request.headers },
					at: state.store.now(),
				};
				state.requestLog.push(entry);
				if (state.requestLog.length > MAX_LOGGED_REQUESTS * 1.1) {
					state.requestLog.splice(0, state.requestLog.length - MAX_LOGGED_REQUESTS);
				}
				request.logEntry = entry;

				const fault = state.faults.take('status', url.pathname);
				if (fault) {
					const headers: Record<string, string> =
						fault.status === 429 ? { 'Retry-After': String(fault.retry_after) } : {};
					throw new ApiError(
						FAULT_CODES[fault.status],
						`Injected fault: HTTP ${fault.status}`,
						[],
						headers,
					);
				}
				const reset = state.faults.take('reset', url.pathname);
				if (reset) {
					// No answer at all: the client sees its connection reset, or (hold) waits in vain.
					reply.hijack();
					const { socket } = request.raw;
					if (!reset.hold) socket.destroy();
					else setTimeout(() => socket.destroy(), HELD_CONNECTION_MAX_MS).unref();
					return;
				}
				const slowBody = state.faults.take('slow_body', url.pathname);
				if (slowBody) {
					reply.hijack();
					trickleBody(reply, slowBody.seconds);
					return;
				}
				request.lateAnswer = state.faults.take('late_answer', url.pathname) ?? null;
				const operation = request.routeOptions.config.operation;
				if (operation) authorize(state, request, reply, operation);
			});

			api.addHook('onSend', async (request) => {
				const late = request.lateAnswer;
				if (late?.hold) await state.heldAnswers.wait();
				else if (late) await new Promise((wake) => setTimeout(wake, late.seconds * 1000));
			});

			api.addHook('preValidation', async (request) => {
				if (request.logEntry) request.logEntry.body = request.body ?? null;
				if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
				coerceQuery(request);
			});

			api.get('/openapi.json', async () => buildOpenApiDocument(OPERATIONS));

			for (const operation of OPERATIONS) {
				api.route({
					method: operation.method,
					url: operation.path,
					schema: operation.schema,
					config: { operation },
					handler: async (request, reply) => {
						const result = await operation.handler({
							tenant: request.grant!.tenant,
							params: request.params as { id: string },
							query: request.query as Record<string, unknown>,
							body: request.body,
							store: state.store,
							engine: state.engine,
							clock: state.clock,
							config: state.config,
						});
						reply.code(operation.status);
						if (operation.status === 204) return reply.send();
						const page = repeatCursorIfInjected(state, request, result);
						return breakPageIfInjected(state, request, reply, page);
					},
				});
			}

			api.setNotFoundHandler(async (request, reply) =>
				sendError(
					reply,
					new ApiError('not_found', `No API route ${request.method} ${request.url.split('?')[0]}`),
				),
			);
		},
		{ prefix: API_PREFIX },
	);
}

export function buildApp(config: SandboxConfig): { app: FastifyInstance; state: SandboxState } {
	const clock = new SandboxClock();
	const store = new Store(config, clock);
	const state: SandboxState = {
		config,
		clock,
		store,
		engine: new DeliveryEngine(store, clock, config.webhooks),
		rateLimiter: new RateLimiter(config.rateLimit, clock),
		faults: new FaultQueue(),
		heldAnswers: new HeldAnswers(),
		requestLog: [],
	};

	const app = Fastify({
		logger: false,
		// close() also ends connections held open by a `reset` fault with `hold`
		forceCloseConnections: true,
		bodyLimit: BODY_LIMIT_BYTES,
		// Reject unknown fields instead of stripping them, and never coerce body types.
		ajv: {
			customOptions: {
				coerceTypes: false,
				removeAdditional: false,
				useDefaults: false,
				allErrors: true,
			},
		},
	});
	app.decorateRequest('grant', null);
	app.decorateRequest('logEntry', null);
	app.decorateRequest('lateAnswer', null);
	app.addHook('onClose', async () => {
		state.heldAnswers.release();
	});

	// JSON only: any other content type is a 415 rather than a string body.
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
		if (body === '') return done(null, undefined);
		try {
			done(null, JSON.parse(body as string));
		} catch {
			done(
				validationError([
					{ field: 'body', message: 'is not valid JSON' },
				]) as unknown as FastifyError,
				undefined,
			);
		}
	});

	app.setErrorHandler(async (error: FastifyError, _request, reply) => {
		if (error instanceof ApiError) return sendError(reply, error);
		if (error.validation)
			return sendError(reply, validationError(detailsFromAjv(error.validation as never)));
		if (error.statusCode === 413) {
			return sendError(
				reply,
				new ApiError(
					'payload_too_large',
					`Request bodies are limited to ${BODY_LIMIT_BYTES / 1024 / 1024} MiB`,
				),
			);
		}
		if (error.statusCode === 415) {
			return sendError(
				reply,
				new ApiError(
					'unsupported_media_type',
					'Request bodies must be JSON: send Content-Type: application/json',
				),
			);
		}
		if (error.statusCode && error.statusCode < 500) {
			return sendError(reply, validationError([{ field: 'body', message: error.message }]));
		}
		return sendError(reply, new ApiError('internal_error', `Sandbox error: ${error.message}`));
	});

	app.setNotFoundHandler(async (request, reply) =>
		sendError(
			reply,
			new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
		),
	);

	registerApi(app, state);
	app.register(async (control) => registerControlRoutes(control, state), { prefix: '/__sandbox' });
	return { app, state };
}
