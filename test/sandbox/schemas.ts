import { EVENT_TYPES } from './events';

/** JSON Schemas of the request parts; Fastify validates with them and the OpenAPI document reuses them. */
export type JsonSchema = Record<string, unknown>;

const MAX_CAPACITY = 9007199254740991;

export const string = { type: 'string' } as const;
export const nonEmptyString = { type: 'string', minLength: 1 } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const uuid = { type: 'string', format: 'uuid' } as const;
export const capacity = { type: 'integer', minimum: 0, maximum: MAX_CAPACITY } as const;

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
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
const deliveryStatus = { type: 'string', enum: ['pending', 'processing', 'delivered', 'failed', 'dead'] };

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
