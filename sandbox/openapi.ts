import { EVENT_CATALOG } from './events';
import type { Operation } from './operations';
import type { JsonSchema } from './schemas';
import { customerResponse, memberResponse, siteResponse } from './schemas';

const ERROR_CODES_BY_STATUS: Record<string, string> = {
	'400': 'validation_failed',
	'401': 'unauthorized',
	'403': 'insufficient_scope or module_inactive',
	'404': 'not_found',
	'429': 'rate_limited (with a Retry-After header in seconds)',
};

const errorSchema: JsonSchema = {
	type: 'object',
	required: ['error'],
	properties: {
		error: {
			type: 'object',
			required: ['code', 'message', 'details'],
			properties: {
				code: { type: 'string' },
				message: { type: 'string' },
				details: {
					type: 'array',
					items: {
						type: 'object',
						required: ['field', 'message'],
						properties: { field: { type: 'string' }, message: { type: 'string' } },
					},
				},
			},
		},
	},
};

function parametersOf(operation: Operation): JsonSchema[] {
	const parameters: JsonSchema[] = [];
	for (const [location, schema] of [
		['path', operation.schema.params],
		['query', operation.schema.querystring],
	] as const) {
		const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
		const required = (schema?.required ?? []) as string[];
		for (const [name, property] of Object.entries(properties)) {
			parameters.push({
				name,
				in: location,
				required: location === 'path' || required.includes(name),
				schema: property,
			});
		}
	}
	return parameters;
}

const DATA_SCHEMA_BY_FAMILY: Record<string, JsonSchema> = {
	member: memberResponse,
	customer: customerResponse,
	customer_location: siteResponse,
};

/** The outbound events, as OpenAPI 3.1 `webhooks`: the envelope, its data and the signature header. */
function webhooksOf(): Record<string, JsonSchema> {
	return Object.fromEntries(
		EVENT_CATALOG.map(({ type, description, module_gate }) => {
			const family = type.split('.')[0];
			const data =
				type === 'member.deleted'
					? { type: 'object', description: 'Pre-delete snapshot (fields not shown by the spec)' }
					: (DATA_SCHEMA_BY_FAMILY[family] ?? {
							type: 'object',
							description: 'Payload shape not shown by the spec; the sandbox sends an example',
						});
			const envelope = {
				type: 'object',
				required: ['id', 'type', 'created_at', 'mode', 'data'],
				properties: {
					id: { type: 'string', pattern: '^evt_[0-9a-f]+$' },
					type: { const: type },
					created_at: { type: 'string', format: 'date-time' },
					mode: { type: 'string', enum: ['live', 'test'] },
					data,
				},
			};
			return [
				type,
				{
					post: {
						summary: description,
						description: `Module gate: ${module_gate}.`,
						parameters: [
							{
								name: 'X-Webhook-Signature',
								in: 'header',
								required: true,
								description:
									't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole whsec_ secret>[,v1=<previous secret, 24 h after a roll>]',
								schema: { type: 'string' },
							},
							{ name: 'X-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } },
							{ name: 'X-Webhook-Test', in: 'header', required: false, schema: { const: 'true' } },
						],
						requestBody: { required: true, content: { 'application/json': { schema: envelope } } },
						responses: {
							'2XX': { description: 'Acknowledged' },
							'410': { description: 'Stop delivering this event' },
						},
					},
				},
			];
		}),
	);
}

/** OpenAPI 3.1 description of the simulated API, built from the same schemas Fastify validates with. */
export function buildOpenApiDocument(operations: Operation[]): JsonSchema {
	const paths: Record<string, Record<string, JsonSchema>> = {};
	for (const operation of operations) {
		const path = operation.path.replace(/:(\w+)/g, '{$1}');
		const errorResponses = Object.fromEntries(
			Object.entries(ERROR_CODES_BY_STATUS).map(([status, codes]) => [
				status,
				{
					description: codes,
					content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
				},
			]),
		);
		paths[path] ??= {};
		paths[path][operation.method.toLowerCase()] = {
			operationId: operation.operationId,
			summary: operation.summary,
			description: `Scope: ${operation.scope}.${operation.module ? ` Module: ${operation.module}.` : ''}`,
			security: [{ bearerAuth: [] }],
			'x-scope': operation.scope,
			...(operation.module ? { 'x-module': operation.module } : {}),
			parameters: parametersOf(operation),
			...(operation.schema.body
				? {
						requestBody: {
							required: true,
							content: { 'application/json': { schema: operation.schema.body } },
						},
					}
				: {}),
			responses: {
				[String(operation.status)]: {
					description: operation.status === 204 ? 'No content' : 'Success',
					...(operation.response
						? { content: { 'application/json': { schema: operation.response } } }
						: {}),
				},
				...errorResponses,
			},
		};
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Workforce Management Public REST API (sandbox)',
			version: '1.0.0',
			description: 'Generated by the sandbox from the JSON Schemas it validates requests with.',
		},
		servers: [{ url: '/api/v1' }],
		components: {
			securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
			schemas: { Error: errorSchema },
		},
		paths,
		webhooks: webhooksOf(),
	};
}
