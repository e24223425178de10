import { createHash, randomBytes } from 'node:crypto';

import type { SandboxClock } from './clock';
import { isoTimestamp } from './clock';
import type { ApiKeyConfig, Mode, OrganizationConfig, SandboxConfig } from './config';
import { notFound } from './errors';
import { RecordList } from './pagination';

export interface Address {
	line1: string | null;
	line2: string | null;
	city: string | null;
	state: string | null;
	postal_code: string | null;
	country: string | null;
}

export interface Organization {
	id: string;
	name: string;
	slug: string;
	logo_url: string | null;
	website: string | null;
	status: string;
	sandbox: boolean;
	created_at: string;
}

export interface Member {
	id: string;
	business_name: string;
	display_name: string | null;
	description: string | null;
	status: 'invited' | 'active' | 'inactive' | 'draft';
	is_active: boolean;
	is_verified: boolean;
	capacity: number;
	age_groups: string[];
	employment_relationship: string;
	contract_type: string | null;
	contract_start_date: string | null;
	contract_end_date: string | null;
	contact: { email: string | null; phone: string | null };
	address: Address;
	created_at: string;
	updated_at: string;
}

export interface Customer {
	id: string;
	name: string;
	status: 'active' | 'inactive' | 'prospect';
	contact_name: string | null;
	contact_email: string | null;
	contact_phone: string | null;
	address: Address;
	contract_start: string | null;
	contract_end: string | null;
	billing_rate: number | null;
	notes: string | null;
	created_at: string;
	updated_at: string;
}

export interface Site {
	id: string;
	customer_id: string;
	name: string;
	address: Address;
	is_active: boolean;
	contact_name: string | null;
	contact_phone: string | null;
	orientation_required: boolean;
	staff_requirements: string | null;
	notes: string | null;
	created_at: string;
	updated_at: string;
}

export interface WebhookEndpoint {
	id: string;
	url: string;
	description: string | null;
	mode: Mode;
	enabled: boolean;
	events: string[];
	secret_preview: string;
	consecutive_failures: number;
	disabled_at: string | null;
	disabled_reason: string | null;
	last_delivery_at: string | null;
	last_success_at: string | null;
	created_at: string;
	updated_at: string;
}

export type DeliveryStatus = 'pending' | 'processing' | 'delivered' | 'failed' | 'dead';

export interface WebhookDelivery {
	id: string;
	endpoint_id: string;
	event_id: string;
	event_type: string;
	mode: Mode;
	status: DeliveryStatus;
	attempts: number;
	last_response_status: number | null;
	last_error: string | null;
	redelivery_of: string | null;
	delivered_at: string | null;
	created_at: string;
}

export interface EventEnvelope {
	id: string;
	type: string;
	created_at: string;
	mode: Mode;
	data: Record<string, unknown>;
}

/** A stored record: the API resource as served, plus the creation counter lists sort by. */
export interface Stored<R> {
	seq: number;
	resource: R;
}

export interface StoredEndpoint extends Stored<WebhookEndpoint> {
	secret: string;
	/**
	 * Secrets replaced by rolls, oldest first, each signing until its own `expiresAt` (sandbox ms):
	 * a second roll within 24 hours does not cut the first one's window short.
	 */
	previousSecrets: { secret: string; expiresAt: number }[];
}

export interface StoredDelivery extends Stored<WebhookDelivery> {
	/** The exact envelope bytes sent on every attempt. */
	body: string;
	isTest: boolean;
	/** Sandbox-clock ms of the next attempt; null once delivered or dead. */
	nextAttemptAt: number | null;
}

/** A collection with id lookup and newest-first pages. */
export class Collection<R extends { id: string }, S extends Stored<R> = Stored<R>> {
	readonly list = new RecordList<S>();
	private readonly byId = new Map<string, S>();

	constructor(private readonly resourceName: string) {}

	add(stored: S): S {
		this.list.append(stored);
		this.byId.set(stored.resource.id, stored);
		return stored;
	}

	find(id: string): S | undefined {
		return this.byId.get(id);
	}

	/** The record, or the 404 every API route answers for ids outside the caller's tenant. */
	get(id: string): S {
		const stored = this.byId.get(id);
		if (!stored) throw notFound(this.resourceName, id);
		return stored;
	}

	delete(predicate: (stored: S) => boolean): void {
		for (const stored of this.byId.values()) {
			if (predicate(stored)) this.byId.delete(stored.resource.id);
		}
		this.list.remove(predicate);
	}

	values(): S[] {
		return this.list.all();
	}
}

/** One organization in one mode: the live organization or its sandbox twin. */
export class Tenant {
	readonly members = new Collection<Member>('member');
	readonly customers = new Collection<Customer>('customer');
	readonly sites = new Collection<Site>('site');
	readonly endpoints = new Collection<WebhookEndpoint, StoredEndpoint>('webhook endpoint');
	readonly deliveries = new Collection<WebhookDelivery, StoredDelivery>('webhook delivery');

	constructor(
		readonly organization: Organization,
		readonly config: OrganizationConfig,
		readonly mode: Mode,
	) {}

	hasModule(module: string): boolean {
		return this.config.modules.includes(module);
	}
}

export interface ApiKeyGrant {
	key: ApiKeyConfig;
	tenant: Tenant;
}

export const EMPTY_ADDRESS: Address = {
	line1: null,
	line2: null,
	city: null,
	state: null,
	postal_code: null,
	country: null,
};

/** Ids that stay the same across resets and restarts (organizations, the demo world), so demos can show them. */
export function stableUuid(name: string): string {
	const hex = createHash('sha256').update(name).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('hex')}`;
}

export function secretPreview(secret: string): string {
	return `whsec_…${secret.slice(-4)}`;
}

export function newEventId(): string {
	return `evt_${randomBytes(12).toString('hex')}`;
}

/** All tenants, keyed by API key and by organization slug + mode. */
export class Store {
	private tenants = new Map<string, Tenant>();
	private grants = new Map<string, ApiKeyGrant>();
	private nextSeq = 1;

	constructor(
		private readonly config: SandboxConfig,
		private readonly clock: SandboxClock,
	) {
		this.reset();
	}

	reset(): void {
		this.tenants.clear();
		this.grants.clear();
		const createdAt = isoTimestamp(this.clock.now());
		for (const organizationConfig of this.config.organizations) {
			for (const mode of ['live', 'test'] as const) {
				const organization: Organization = {
					id: stableUuid(`organization/${organizationConfig.slug}/${mode}`),
					name: organizationConfig.name,
					slug: organizationConfig.slug,
					logo_url: null,
					website: null,
					status: organizationConfig.status,
					sandbox: mode === 'test',
					created_at: createdAt,
				};
				this.tenants.set(
					`${organizationConfig.slug}/${mode}`,
					new Tenant(organization, organizationConfig, mode),
				);
			}
			for (const key of organizationConfig.keys) {
				this.grants.set(key.key, { key, tenant: this.tenant(organizationConfig.slug, key.mode)! });
			}
		}
	}

	seq(): number {
		return this.nextSeq++;
	}

	now(): string {
		return isoTimestamp(this.clock.now());
	}

	grant(apiKey: string): ApiKeyGrant | undefined {
		return this.grants.get(apiKey);
	}

	tenant(slug: string, mode: Mode): Tenant | undefined {
		return this.tenants.get(`${slug}/${mode}`);
	}

	allTenants(): Tenant[] {
		return [...this.tenants.values()];
	}

	/**
	 * Replaces an API key by a new one with the same organization, mode and scopes, as a key
	 * rotation in the API's dashboard would; the old key stops working at once.
	 */
	rotateKey(apiKey: string): string | undefined {
		const grant = this.grants.get(apiKey);
		if (!grant) return undefined;
		const rotated = `${grant.key.key.replace(/_r\d+$/, '')}_r${this.seq()}`;
		this.grants.delete(apiKey);
		this.grants.set(rotated, { key: { ...grant.key, key: rotated }, tenant: grant.tenant });
		return rotated;
	}

	apiKeys(): Array<ApiKeyConfig & { organization: string }> {
		return [...this.grants.values()].map(({ key, tenant }) => ({
			organization: tenant.organization.slug,
			...key,
		}));
	}
}
