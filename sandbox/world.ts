/**
 * The demo world: members, customers and sites with names, contacts and addresses, the same on
 * every start (ids and choices come from the tenant's slug and mode, never from Math.random), and
 * the people and places the example events refer to. Only a tenant seeded with
 * `POST /__sandbox/seed/world` holds these records; the example events name them in every tenant.
 */
import { createHash } from 'node:crypto';

import {
	stableUuid,
	type Address,
	type Customer,
	type Member,
	type Site,
	type Tenant,
} from './store';

export const WORLD_SIZE = { members: 24, customers: 8 } as const;

const FIRST_NAMES = [
	'Dana',
	'Luis',
	'Priya',
	'Marcus',
	'Aiko',
	'Fatima',
	'Tom',
	'Grace',
	'Omar',
	'Elena',
	'Kwame',
	'Sofia',
	'Jonas',
	'Mei',
	'Ravi',
	'Hannah',
	'Diego',
	'Amara',
	'Noah',
	'Ingrid',
	'Yusuf',
	'Clara',
	'Mateo',
	'Leila',
];
const LAST_NAMES = [
	'Rivers',
	'Ortega',
	'Nair',
	'Bell',
	'Tanaka',
	'Haddad',
	'Fischer',
	'Okafor',
	'Lindqvist',
	'Moreau',
	'Chen',
	'Patel',
	'Novak',
	'Silva',
	'Brennan',
	'Adeyemi',
	'Kowalski',
	'Dubois',
	'Reyes',
	'Sato',
	'Hughes',
	'Mensah',
	'Larsen',
	'Costa',
];
const TRADES = ['Care Services', 'Nursing', 'Home Support', 'Care', 'Health Staffing'];
const STREETS = [
	'Maple Avenue',
	'Harbor Street',
	'Oak Lane',
	'Cedar Road',
	'Elm Street',
	'Mill Road',
	'Park Avenue',
	'Willow Way',
	'Station Road',
	'Lakeview Drive',
];
const CITIES: Array<Pick<Address, 'city' | 'state' | 'postal_code'>> = [
	{ city: 'Portland', state: 'OR', postal_code: '97205' },
	{ city: 'Salem', state: 'OR', postal_code: '97301' },
	{ city: 'Eugene', state: 'OR', postal_code: '97401' },
	{ city: 'Vancouver', state: 'WA', postal_code: '98660' },
	{ city: 'Tacoma', state: 'WA', postal_code: '98402' },
];
const CUSTOMERS = [
	['Northwind Health', 'Clinic', ['East', 'West']],
	['Riverside Care Homes', 'House', ['Willow', 'Cedar', 'Maple']],
	['Harbor Pediatrics', 'Clinic', ['Downtown']],
	['Summit Senior Living', 'Residence', ['North', 'South']],
	['Greenfield School District', 'School', ['Elementary', 'Middle']],
	['Lakeside Rehabilitation', 'Center', ['Main']],
	['Bluebird Home Care', 'Office', ['Central', 'Eastside']],
	['Cascade Medical Group', 'Clinic', ['Uptown', 'Airport', 'Riverfront']],
] as const;
const AGE_GROUPS = ['adults', 'seniors', 'children'];

/** mulberry32: a small seeded generator, the same numbers for the same seed. */
function seededRandom(seed: string): () => number {
	let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

export interface World {
	members: Member[];
	customers: Customer[];
	sites: Site[];
}

/** The world of one tenant (`acme/test`), its records stamped with `now`. */
export function buildWorld(tenantKey: string, now: string): World {
	const random = seededRandom(`world/${tenantKey}`);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
	const id = (kind: string, index: number) => stableUuid(`world/${tenantKey}/${kind}/${index}`);
	const phone = () => `+1 555 01${String(Math.floor(random() * 100)).padStart(2, '0')}`;
	const address = (): Address => ({
		line1: `${10 + Math.floor(random() * 1990)} ${pick(STREETS)}`,
		line2: null,
		...pick(CITIES),
		country: 'US',
	});

	const members = FIRST_NAMES.slice(0, WORLD_SIZE.members).map((first, index): Member => {
		const last = LAST_NAMES[index];
		const person = `${first} ${last}`;
		const business = random() < 0.5 ? person : `${last} ${pick(TRADES)}`;
		// the first two work the example shift; the last one just signed up
		const status =
			index < 2
				? 'active'
				: index === WORLD_SIZE.members - 1
					? 'draft'
					: pick(['active', 'active', 'active', 'inactive', 'draft'] as const);
		const employee = random() < 0.3;
		return {
			id: id('member', index),
			business_name: business,
			display_name: business === person ? null : person,
			description: null,
			status,
			is_active: status !== 'inactive',
			is_verified: status === 'active',
			capacity: 1 + Math.floor(random() * 4),
			age_groups: AGE_GROUPS.filter(() => random() < 0.5),
			employment_relationship: employee ? 'employee' : 'contractor',
			contract_type: employee ? pick(['full_time', 'part_time']) : null,
			contract_start_date: employee
				? `202${3 + Math.floor(random() * 3)}-0${1 + Math.floor(random() * 9)}-01`
				: null,
			contract_end_date: null,
			contact: {
				email: `${first}.${last}@example.com`.toLowerCase(),
				phone: phone(),
			},
			address: address(),
			created_at: now,
			updated_at: now,
		};
	});

	const customers: Customer[] = [];
	const sites: Site[] = [];
	CUSTOMERS.slice(0, WORLD_SIZE.customers).forEach(([name, siteKind, siteNames], index) => {
		const contactFirst = pick(FIRST_NAMES);
		const contactLast = pick(LAST_NAMES);
		const domain = `${name.split(' ')[0].toLowerCase()}.example`;
		const customer: Customer = {
			id: id('customer', index),
			name,
			status: index === 0 ? 'active' : pick(['active', 'active', 'active', 'prospect'] as const),
			contact_name: `${contactFirst} ${contactLast}`,
			contact_email: `${contactFirst.toLowerCase()}@${domain}`,
			contact_phone: phone(),
			address: address(),
			contract_start: `2025-0${1 + Math.floor(random() * 9)}-01`,
			contract_end: null,
			billing_rate: 32 + Math.floor(random() * 53) / 2,
			notes: null,
			created_at: now,
			updated_at: now,
		};
		customers.push(customer);
		siteNames.forEach((siteName, siteIndex) => {
			sites.push({
				id: id(`customer/${index}/site`, siteIndex),
				customer_id: customer.id,
				name: `${name.split(' ')[0]} ${siteKind} ${siteName}`,
				address: { ...customer.address, line1: address().line1 },
				is_active: true,
				contact_name: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
				contact_phone: phone(),
				orientation_required: random() < 0.4,
				staff_requirements: random() < 0.5 ? 'Current CPR certificate' : null,
				notes: null,
				created_at: now,
				updated_at: now,
			});
		});
	});
	return { members, customers, sites };
}

export function tenantKey(tenant: Tenant): string {
	return `${tenant.organization.slug}/${tenant.mode}`;
}

/** Adds the tenant's world records it does not hold yet; answers how many of each it holds. */
export function seedWorld(tenant: Tenant, now: string, nextSeq: () => number): World {
	const world = buildWorld(tenantKey(tenant), now);
	const add = <R extends { id: string }>(
		collection: { find(id: string): unknown; add(stored: { seq: number; resource: R }): unknown },
		records: R[],
	) => {
		for (const resource of records) {
			if (!collection.find(resource.id)) collection.add({ seq: nextSeq(), resource });
		}
	};
	add(tenant.customers, world.customers);
	add(tenant.sites, world.sites);
	add(tenant.members, world.members);
	return world;
}

/**
 * Who and where the example events are about: two members who worked one shift at a site of one
 * customer, and a member who just signed up. The tenant's stored copy when it holds one (so an
 * example agrees with what the API answers), the fixture otherwise.
 */
export function exampleCast(tenant: Tenant, now: string) {
	const world = buildWorld(tenantKey(tenant), now);
	const stored = <R extends { id: string }>(
		collection: { find(id: string): { resource: R } | undefined },
		record: R,
	): R => structuredClone(collection.find(record.id)?.resource ?? record);
	const customer = stored(tenant.customers, world.customers[0]);
	return {
		worker: stored(tenant.members, world.members[0]),
		colleague: stored(tenant.members, world.members[1]),
		newcomer: stored(tenant.members, world.members[world.members.length - 1]),
		customer,
		site: stored(tenant.sites, world.sites.find((site) => site.customer_id === customer.id)!),
		/** Ids of the records only events carry (the API has no routes for them). */
		id: (kind: string) => stableUuid(`world/${tenantKey(tenant)}/${kind}`),
	};
}
