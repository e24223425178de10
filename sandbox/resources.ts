import { randomUUID } from 'node:crypto';

import type { Customer, Member, Site } from './store';
import { EMPTY_ADDRESS } from './store';

export interface MemberInput {
	business_name: string;
	display_name?: string;
	description?: string;
	capacity?: number;
	contact?: { email?: string; phone?: string };
}

export interface CustomerInput {
	name: string;
	status?: Customer['status'];
	contact_name?: string;
	contact_email?: string;
	contact_phone?: string;
	billing_rate?: number;
	notes?: string;
}

export interface MemberPatch {
	business_name?: string;
	display_name?: string | null;
	description?: string | null;
	capacity?: number;
	contact?: { email?: string | null; phone?: string | null };
}

export interface CustomerPatch {
	name?: string;
	status?: Customer['status'];
	contact_name?: string | null;
	contact_email?: string | null;
	contact_phone?: string | null;
	billing_rate?: number | null;
	notes?: string | null;
}

export interface SiteInput {
	customer_id: string;
	name: string;
	contact_name?: string;
	contact_phone?: string;
	orientation_required?: boolean;
	staff_requirements?: string;
	notes?: string;
}

export interface SitePatch {
	name?: string;
	is_active?: boolean;
	contact_name?: string | null;
	contact_phone?: string | null;
	orientation_required?: boolean;
	staff_requirements?: string | null;
	notes?: string | null;
}

export interface EndpointInput {
	url: string;
	description?: string;
	events: string[];
}

export interface EndpointPatch {
	url?: string;
	description?: string | null;
	events?: string[];
	enabled?: boolean;
}

/** Defaults the spec leaves open (see README): active, contractor, capacity 1, no contract. */
export function newMember(input: MemberInput, now: string): Member {
	return {
		id: randomUUID(),
		business_name: input.business_name,
		display_name: input.display_name ?? null,
		description: input.description ?? null,
		status: 'draft',
		is_active: true,
		is_verified: false,
		capacity: input.capacity ?? 1,
		age_groups: [],
		employment_relationship: 'contractor',
		contract_type: null,
		contract_start_date: null,
		contract_end_date: null,
		contact: { email: input.contact?.email ?? null, phone: input.contact?.phone ?? null },
		address: { ...EMPTY_ADDRESS },
		created_at: now,
		updated_at: now,
	};
}

export function newCustomer(input: CustomerInput, now: string): Customer {
	return {
		id: randomUUID(),
		name: input.name,
		status: input.status ?? 'active',
		contact_name: input.contact_name ?? null,
		contact_email: input.contact_email ?? null,
		contact_phone: input.contact_phone ?? null,
		address: { ...EMPTY_ADDRESS },
		contract_start: null,
		contract_end: null,
		billing_rate: input.billing_rate ?? null,
		notes: input.notes ?? null,
		created_at: now,
		updated_at: now,
	};
}

export function newSite(input: SiteInput, now: string): Site {
	return {
		id: randomUUID(),
		customer_id: input.customer_id,
		name: input.name,
		address: { ...EMPTY_ADDRESS },
		is_active: true,
		contact_name: input.contact_name ?? null,
		contact_phone: input.contact_phone ?? null,
		orientation_required: input.orientation_required ?? false,
		staff_requirements: input.staff_requirements ?? null,
		notes: input.notes ?? null,
		created_at: now,
		updated_at: now,
	};
}

/**
 * PATCH: copies only the supplied keys (null included, which clears a nullable field);
 * nested objects such as `contact` merge key by key. Answers whether anything was supplied.
 */
export function applyPatch(resource: object, patch: object): boolean {
	const target = resource as Record<string, unknown>;
	for (const [key, value] of Object.entries(patch)) {
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			target[key] = { ...(target[key] as object), ...value };
		} else {
			target[key] = value;
		}
	}
	return Object.keys(patch).length > 0;
}
