import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

import type { Sandbox } from '../index';
import { LIVE_KEY } from '../../support/constants';
import { closeServer, listenOnLoopback } from '../../support/loopback-server';

process.env.NO_PROXY = '127.0.0.1,localhost';

export interface ApiAnswer<T = any> {
	status: number;
	headers: Headers;
	body: T;
}

async function send(
	url: string,
	method: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<ApiAnswer> {
	const response = await fetch(url, {
		method,
		headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
		body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		body: text ? JSON.parse(text) : undefined,
	};
}

/** A request to the public API, as any client would make it. */
export function api(
	sandbox: Sandbox,
	key: string | null,
	method: string,
	path: string,
	body?: unknown,
): Promise<ApiAnswer> {
	return send(
		sandbox.baseUrl + path,
		method,
		key === null ? {} : { authorization: `Bearer ${key}` },
		body,
	);
}

export async function control(
	sandbox: Sandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<any> {
	const answer = await send(`${sandbox.origin}/__sandbox${path}`, method, {}, body);
	if (answer.status >= 300)
		throw new Error(`control ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	return answer.body;
}

/** Creates a record through the public API, expecting 201, and answers it. */
async function createRecord(sandbox: Sandbox, key: string, path: string, body: object) {
	const answer = await api(sandbox, key, 'POST', path, body);
	expect(answer.status).toBe(201);
	return answer.body;
}

export function createMember(
	sandbox: Sandbox,
	key = LIVE_KEY,
	body: object = { business_name: 'Harbor Cleaning Co' },
) {
	return createRecord(sandbox, key, '/members', body);
}

export function createCustomer(
	sandbox: Sandbox,
	key = LIVE_KEY,
	body: object = { name: 'Northwind Health' },
) {
	return createRecord(sandbox, key, '/customers', body);
}

export interface ReceivedDelivery {
	headers: http.IncomingHttpHeaders;
	rawBody: string;
	body: any;
}

/** A local webhook receiver answering the statuses queued with `answerNext` (200 otherwise). */
export class WebhookReceiver {
	readonly received: ReceivedDelivery[] = [];
	private statuses: number[] = [];
	private server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			this.received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody) });
			response.statusCode = this.statuses.shift() ?? 200;
			response.end();
		});
	});

	private origin = '';

	async start(): Promise<this> {
		this.origin = await listenOnLoopback(this.server);
		return this;
	}

	get url(): string {
		return `${this.origin}/hooks/wfm`;
	}

	answerNext(...statuses: number[]): void {
		this.statuses.push(...statuses);
	}

	reset(): void {
		this.received.length = 0;
		this.statuses = [];
	}

	async stop(): Promise<void> {
		await closeServer(this.server);
	}
}

/**
 * Checks `X-Webhook-Signature` the way a receiver following the spec would, written here
 * independently of the sandbox's signer: HMAC-SHA256 of `<t>.<raw body>` keyed with the secret.
 */
export function signatureMatches(header: string, rawBody: string, secret: string): boolean {
	const parts = header.split(',').map((part) => part.split('='));
	const timestamp = parts.find(([name]) => name === 't')?.[1];
	if (!timestamp) return false;
	const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
	return parts
		.filter(([name]) => name === 'v1')
		.some(([, hex]) => {
			const given = Buffer.from(hex, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		});
}

/** Whether the delivery's `X-Webhook-Signature` signs its raw body with `secret`. */
export function isSignedWith(delivery: ReceivedDelivery, secret: string): boolean {
	return signatureMatches(
		String(delivery.headers['x-webhook-signature']),
		delivery.rawBody,
		secret,
	);
}

/** How many `v1=` signatures the delivery's `X-Webhook-Signature` holds. */
export function signatureCount(delivery: ReceivedDelivery): number {
	return String(delivery.headers['x-webhook-signature'])
		.split(',')
		.filter((part) => part.startsWith('v1=')).length;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

type FieldKind =
	| 'uuid'
	| 'uuid?'
	| 'string'
	| 'string?'
	| 'boolean'
	| 'integer'
	| 'number?'
	| 'date-time'
	| 'date-time?'
	| 'date?'
	| 'string[]'
	| 'integer?'
	| 'address'
	| 'contact'
	| { enum: readonly (string | null)[] };

function matchesKind(value: unknown, kind: FieldKind): boolean {
	if (typeof kind === 'object') return kind.enum.includes(value as string | null);
	const nullable = kind.endsWith('?');
	if (nullable && value === null) return true;
	switch (kind.replace('?', '')) {
		case 'uuid':
			return typeof value === 'string' && UUID.test(value);
		case 'string':
			return typeof value === 'string';
		case 'boolean':
			return typeof value === 'boolean';
		case 'integer':
			return Number.isInteger(value);
		case 'number':
			return typeof value === 'number';
		case 'date-time':
			return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
		case 'date':
			return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
		case 'string[]':
			return Array.isArray(value) && value.every((item) => typeof item === 'string');
		case 'address':
			return shapeErrors(value, ADDRESS_SHAPE).length === 0;
		case 'contact':
			return shapeErrors(value, { email: 'string?', phone: 'string?' }).length === 0;
		default:
			return false;
	}
}

/** Field-by-field differences from a shape: missing, extra, or of the wrong kind. */
export function shapeErrors(value: unknown, shape: Record<string, FieldKind>): string[] {
	if (value === null || typeof value !== 'object') return ['not an object'];
	const record = value as Record<string, unknown>;
	const errors = Object.keys(record)
		.filter((key) => !(key in shape))
		.map((key) => `unexpected field ${key}`);
	for (const [field, kind] of Object.entries(shape)) {
		if (!(field in record)) errors.push(`missing ${field}`);
		else if (!matchesKind(record[field], kind))
			errors.push(`${field}=${JSON.stringify(record[field])} is not ${JSON.stringify(kind)}`);
	}
	return errors;
}

export const ADDRESS_SHAPE: Record<string, FieldKind> = {
	line1: 'string?',
	line2: 'string?',
	city: 'string?',
	state: 'string?',
	postal_code: 'string?',
	country: 'string?',
};

export const ORGANIZATION_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	name: 'string',
	slug: 'string',
	logo_url: 'string?',
	website: 'string?',
	status: { enum: ['draft', 'demo', 'active', 'suspended', 'cancelled'] },
	sandbox: 'boolean',
	created_at: 'date-time',
};

export const MEMBER_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	business_name: 'string',
	display_name: 'string?',
	description: 'string?',
	status: { enum: ['invited', 'active', 'inactive', 'draft'] },
	is_active: 'boolean',
	is_verified: 'boolean',
	capacity: 'integer',
	age_groups: 'string[]',
	employment_relationship: {
		enum: [
			'direct_employee',
			'contractor',
			'independent',
			'agency_worker',
			'volunteer',
			'apprentice',
		],
	},
	contract_type: { enum: ['permanent', 'fixed_term', 'casual', 'seasonal', 'project_based', null] },
	contract_start_date: 'date?',
	contract_end_date: 'date?',
	contact: 'contact',
	address: 'address',
	created_at: 'date-time',
	updated_at: 'date-time',
};

export const CUSTOMER_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	name: 'string',
	status: { enum: ['active', 'inactive', 'prospect'] },
	contact_name: 'string?',
	contact_email: 'string?',
	contact_phone: 'string?',
	address: 'address',
	contract_start: 'date?',
	contract_end: 'date?',
	billing_rate: 'number?',
	notes: 'string?',
	created_at: 'date-time',
	updated_at: 'date-time',
};

export const SITE_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	customer_id: 'uuid',
	name: 'string',
	address: 'address',
	is_active: 'boolean',
	contact_name: 'string?',
	contact_phone: 'string?',
	orientation_required: 'boolean',
	staff_requirements: 'string?',
	notes: 'string?',
	created_at: 'date-time',
	updated_at: 'date-time',
};

export const ENDPOINT_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	url: 'string',
	description: 'string?',
	mode: { enum: ['live', 'test'] },
	enabled: 'boolean',
	events: 'string[]',
	secret_preview: 'string',
	consecutive_failures: 'integer',
	disabled_at: 'date-time?',
	disabled_reason: 'string?',
	last_delivery_at: 'date-time?',
	last_success_at: 'date-time?',
	created_at: 'date-time',
	updated_at: 'date-time',
};

export const DELIVERY_SHAPE: Record<string, FieldKind> = {
	id: 'uuid',
	endpoint_id: 'uuid',
	event_id: 'string',
	event_type: 'string',
	mode: { enum: ['live', 'test'] },
	status: { enum: ['pending', 'processing', 'delivered', 'failed', 'dead'] },
	attempts: 'integer',
	last_response_status: 'integer?',
	last_error: 'string?',
	redelivery_of: 'uuid?',
	delivered_at: 'date-time?',
	created_at: 'date-time',
};

export function expectShape(value: unknown, shape: Record<string, FieldKind>): void {
	expect(shapeErrors(value, shape)).toEqual([]);
}

export function expectList(value: any, itemShape: Record<string, FieldKind>): void {
	expect(Object.keys(value).sort()).toEqual(['data', 'has_more', 'next_cursor']);
	expect(Array.isArray(value.data)).toBe(true);
	expect(typeof value.has_more).toBe('boolean');
	for (const item of value.data) expectShape(item, itemShape);
}

export function expectError(answer: ApiAnswer, status: number, code: string): void {
	expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
	expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'details', 'message']);
	expect(typeof answer.body.error.message).toBe('string');
}
