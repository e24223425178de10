import { EVENT_TYPES } from './events';

/** JSON Schemas of the request parts; Fastify validates with them and the OpenAPI document reuses them. */
export type JsonSchema = Record<string, unknown>;

const MAX_CAPACITY = 9007199254740991;

export const string = { type: 'string' } as const;
export const nonEmptyString = { type: 'string', minLength: 1 } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const uuid = { type: 'string', format: 'uuid' } as const;
export const capacity = { type: 'integer', minimum: 0, maximum: MAX_CAPACITY } as const;

export function object(
	properties: Record<string, JsonSchema>,
	required: string[] = [],
): JsonSchema {
	return { type: 'object', properties, required, additionalProperties: false };
}

export const idParams = object({ id: uuid }, ['id']);

const pageQueryProperties = {
	limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
	cursor: { type: 'string', minLength: 1 },
};

export function listQuery(filters: Record<string, JsonSchema> = {}): JsonSchema {
	return object({ ...pageQueryProperties, ...filters });
}

export const emptyBody = object({});

const memberStatus = { type: 'string', enum: ['invited', 'active', 'inactive', 'draft'] };
const customerStatus = { type: 'string', enum: ['active', 'inactive', 'prospect'] };
const deliveryStatus = {
	type: 'string',
	enum: ['pending', 'processing', 'delivered', 'failed', 'dead'],
};

export const memberListQuery = listQuery({
	status: memberStatus,
	is_verified: { type: 'boolean' },
	is_active: { type: 'boolean' },
});

export const memberCreateBody = object(
	{
		business_name: nonEmptyString,
		display_name: string,
		description: string,
		capacity,
		contact: object({ email: string, phone: string }),
	},
	['business_name'],
);

export const memberUpdateBody = object({
	business_name: nonEmptyString,
	display_name: nullableString,
	description: nullableString,
	capacity,
	contact: object({ email: nullableString, phone: nullableString }),
});

export const customerListQuery = listQuery({ status: customerStatus });

export const customerCreateBody = object(
	{
		name: nonEmptyString,
		status: customerStatus,
		contact_name: string,
		contact_email: string,
		contact_phone: string,
		billing_rate: { type: 'number', minimum: 0 },
		notes: string,
	},
	['name'],
);

export const customerUpdateBody = object({
	name: nonEmptyString,
	status: customerStatus,
	contact_name: nullableString,
	contact_email: nullableString,
	contact_phone: nullableString,
	billing_rate: { type: ['number', 'null'], minimum: 0 },
	notes: nullableString,
});

export const siteListQuery = listQuery({ customer_id: uuid, is_active: { type: 'boolean' } });

export const siteCreateBody = object(
	{
		customer_id: uuid,
		name: nonEmptyString,
		contact_name: string,
		contact_phone: string,
		orientation_required: { type: 'boolean' },
		staff_requirements: string,
		notes: string,
	},
	['customer_id', 'name'],
);

export const siteUpdateBody = object({
	name: nonEmptyString,
	is_active: { type: 'boolean' },
	contact_name: nullableString,
	contact_phone: nullableString,
	orientation_required: { type: 'boolean' },
	staff_requirements: nullableString,
	notes: nullableString,
});

const eventTypes = {
	type: 'array',
	minItems: 1,
	uniqueItems: true,
	items: { type: 'string', enum: ['*', ...EVENT_TYPES] },
};

export const endpointCreateBody = object(
	{ url: nonEmptyString, description: string, events: eventTypes },
	['url', 'events'],
);

export const endpointUpdateBody = object({
	url: nonEmptyString,
	description: nullableString,
	events: eventTypes,
	enabled: { type: 'boolean' },
});

export const endpointTestBody = object({ event_type: { type: 'string', enum: [...EVENT_TYPES] } });

export const deliveryListQuery = listQuery({
	endpoint_id: uuid,
	status: deliveryStatus,
	event_type: nonEmptyString,
});

// Response shapes, for the OpenAPI document: every field always present, nullable ones as null.

function record(properties: Record<string, JsonSchema>): JsonSchema {
	return {
		type: 'object',
		properties,
		required: Object.keys(properties),
		additionalProperties: false,
	};
}

const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const nullableDate = { type: ['string', 'null'], format: 'date' };
const mode = { type: 'string', enum: ['live', 'test'] };

const address = record({
	line1: nullableString,
	line2: nullableString,
	city: nullableString,
	state: nullableString,
	postal_code: nullableString,
	country: nullableString,
});

export const organizationResponse = record({
	id: uuid,
	name: string,
	slug: string,
	logo_url: nullableString,
	website: nullableString,
	status: { type: 'string', enum: ['draft', 'demo', 'active', 'suspended', 'cancelled'] },
	sandbox: { type: 'boolean' },
	created_at: dateTime,
});

export const memberResponse = record({
	id: uuid,
	business_name: string,
	display_name: nullableString,
	description: nullableString,
	status: memberStatus,
	is_active: { type: 'boolean' },
	is_verified: { type: 'boolean' },
	capacity: { type: 'integer', minimum: -MAX_CAPACITY, maximum: MAX_CAPACITY },
	age_groups: { type: 'array', items: string },
	employment_relationship: {
		type: 'string',
		enum: [
			'direct_employee',
			'contractor',
			'independent',
			'agency_worker',
			'volunteer',
			'apprentice',
		],
	},
	contract_type: {
		type: ['string', 'null'],
		enum: ['permanent', 'fixed_term', 'casual', 'seasonal', 'project_based', null],
	},
	contract_start_date: nullableDate,
	contract_end_date: nullableDate,
	contact: record({ email: nullableString, phone: nullableString }),
	address,
	created_at: dateTime,
	updated_at: dateTime,
});

export const customerResponse = record({
	id: uuid,
	name: string,
	status: customerStatus,
	contact_name: nullableString,
	contact_email: nullableString,
	contact_phone: nullableString,
	address,
	contract_start: nullableDate,
	contract_end: nullableDate,
	billing_rate: { type: ['number', 'null'] },
	notes: nullableString,
	created_at: dateTime,
	updated_at: dateTime,
});

export const siteResponse = record({
	id: uuid,
	customer_id: uuid,
	name: string,
	address,
	is_active: { type: 'boolean' },
	contact_name: nullableString,
	contact_phone: nullableString,
	orientation_required: { type: 'boolean' },
	staff_requirements: nullableString,
	notes: nullableString,
	created_at: dateTime,
	updated_at: dateTime,
});

const endpointFields = {
	id: uuid,
	url: string,
	description: nullableString,
	mode,
	enabled: { type: 'boolean' },
	events: { type: 'array', items: string },
	secret_preview: string,
	consecutive_failures: { type: 'integer' },
	disabled_at: nullableDateTime,
	disabled_reason: nullableString,
	last_delivery_at: nullableDateTime,
	last_success_at: nullableDateTime,
	created_at: dateTime,
	updated_at: dateTime,
};

export const endpointResponse = record(endpointFields);
export const endpointCreatedResponse = record({ ...endpointFields, secret: string });
export const rolledSecretResponse = record({
	secret: string,
	previous_secret_expires_at: dateTime,
});
export const testDeliveryResponse = record({
	delivery_id: uuid,
	ok: { type: 'boolean' },
	response_status: { type: 'integer' },
	duration_ms: { type: 'integer' },
});

export const deliveryResponse = record({
	id: uuid,
	endpoint_id: uuid,
	event_id: { type: 'string', pattern: '^evt_[0-9a-f]+$' },
	event_type: string,
	mode,
	status: deliveryStatus,
	attempts: { type: 'integer' },
	last_response_status: { type: ['integer', 'null'] },
	last_error: nullableString,
	redelivery_of: { type: ['string', 'null'], format: 'uuid' },
	delivered_at: nullableDateTime,
	created_at: dateTime,
});

export const redeliverResponse = record({ delivery_id: uuid });

export const catalogEntryResponse = record({
	type: string,
	description: string,
	module_gate: string,
});

export function listOf(item: JsonSchema): JsonSchema {
	return record({
		data: { type: 'array', items: item },
		has_more: { type: 'boolean' },
		next_cursor: nullableString,
	});
}
