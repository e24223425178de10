/**
 * The public API's response shapes, field by field, and the expectations the sandbox's tests
 * build on them. Written from the API specification, independently of the sandbox's schemas
 * (sandbox/schemas.ts), so a mistake there cannot hide behind a shape copied from it.
 */
import type { SandboxAnswer } from '../../harness/sandbox-api';

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

export function expectError(answer: SandboxAnswer, status: number, code: string): void {
	expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
	expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'details', 'message']);
	expect(typeof answer.body.error.message).toBe('string');
}
