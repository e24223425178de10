import { api } from '../../harness/sandbox-api';
import { createCustomer, createMember } from '../support/sandbox-records';
import {
	CUSTOMER_SHAPE,
	MEMBER_SHAPE,
	ORGANIZATION_SHAPE,
	SITE_SHAPE,
	expectList,
	expectShape,
} from '../support/sandbox-shapes';
import { GLOBEX_KEY, LIVE_KEY, TEST_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';

const fixture = useSandbox();

describe('organization', () => {
	it('answers the live organization for a live key and its sandbox twin for a test key', async () => {
		const live = await api(fixture.sandbox, LIVE_KEY, 'GET', '/organization');
		const test = await api(fixture.sandbox, TEST_KEY, 'GET', '/organization');
		expect(live.status).toBe(200);
		expectShape(live.body, ORGANIZATION_SHAPE);
		expectShape(test.body, ORGANIZATION_SHAPE);
		expect(live.body).toMatchObject({
			name: 'Acme Staffing',
			slug: 'acme',
			status: 'active',
			sandbox: false,
		});
		expect(test.body).toMatchObject({ name: 'Acme Staffing', slug: 'acme', sandbox: true });
		expect(test.body.id).not.toBe(live.body.id);
	});
});

describe('members', () => {
	it('creates a member as draft, unverified, with every documented field', async () => {
		const answer = await api(fixture.sandbox, LIVE_KEY, 'POST', '/members', {
			business_name: 'Harbor Cleaning Co',
			display_name: 'Jo Harbor',
			description: 'Commercial cleaning',
			capacity: 4,
			contact: { email: 'jo@harbor.example' },
		});
		expect(answer.status).toBe(201);
		expectShape(answer.body, MEMBER_SHAPE);
		expect(answer.body).toMatchObject({
			business_name: 'Harbor Cleaning Co',
			display_name: 'Jo Harbor',
			description: 'Commercial cleaning',
			capacity: 4,
			status: 'draft',
			is_verified: false,
			contact: { email: 'jo@harbor.example', phone: null },
		});
		expect(answer.body.updated_at).toBe(answer.body.created_at);
	});

	it('accepts the largest documented capacity', async () => {
		const member = await createMember(fixture.sandbox, LIVE_KEY, {
			business_name: 'Big',
			capacity: 9007199254740991,
		});
		expect(member.capacity).toBe(9007199254740991);
	});

	it('gets a member by id', async () => {
		const member = await createMember(fixture.sandbox);
		const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members/${member.id}`);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual(member);
	});

	it('changes only the supplied fields on PATCH, and null clears a nullable field', async () => {
		const member = await createMember(fixture.sandbox, LIVE_KEY, {
			business_name: 'Harbor Cleaning Co',
			display_name: 'Jo',
			description: 'Keeps this',
			contact: { email: 'jo@harbor.example', phone: '+1 555 0101' },
		});
		const answer = await api(fixture.sandbox, LIVE_KEY, 'PATCH', `/members/${member.id}`, {
			display_name: null,
			capacity: 0,
			contact: { phone: null },
		});
		expect(answer.status).toBe(200);
		expectShape(answer.body, MEMBER_SHAPE);
		expect(answer.body).toMatchObject({
			business_name: 'Harbor Cleaning Co',
			display_name: null,
			description: 'Keeps this',
			capacity: 0,
			contact: { email: 'jo@harbor.example', phone: null },
		});
		expect(Date.parse(answer.body.updated_at)).toBeGreaterThanOrEqual(
			Date.parse(member.updated_at),
		);
		const stored = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members/${member.id}`);
		expect(stored.body).toEqual(answer.body);
	});

	it('verifies and deactivates a member through its lifecycle', async () => {
		const member = await createMember(fixture.sandbox);
		const verified = await api(
			fixture.sandbox,
			LIVE_KEY,
			'POST',
			`/members/${member.id}/verify`,
			{},
		);
		expect(verified.status).toBe(200);
		expectShape(verified.body, MEMBER_SHAPE);
		expect(verified.body).toMatchObject({ is_verified: true, status: 'draft', is_active: true });

		const deactivated = await api(
			fixture.sandbox,
			LIVE_KEY,
			'POST',
			`/members/${member.id}/deactivate`,
		);
		expect(deactivated.status).toBe(200);
		expect(deactivated.body).toMatchObject({
			is_verified: true,
			is_active: false,
			status: 'inactive',
		});
	});

	it('filters the list by status, is_verified and is_active', async () => {
		const verified = await createMember(fixture.sandbox, LIVE_KEY, { business_name: 'Verified' });
		await api(fixture.sandbox, LIVE_KEY, 'POST', `/members/${verified.id}/verify`, {});
		const inactive = await createMember(fixture.sandbox, LIVE_KEY, { business_name: 'Inactive' });
		await api(fixture.sandbox, LIVE_KEY, 'POST', `/members/${inactive.id}/deactivate`, {});
		const draft = await createMember(fixture.sandbox, LIVE_KEY, { business_name: 'Draft' });

		const names = async (query: string) => {
			const answer = await api(fixture.sandbox, LIVE_KEY, 'GET', `/members?${query}`);
			expect(answer.status).toBe(200);
			expectList(answer.body, MEMBER_SHAPE);
			return answer.body.data.map((item: { business_name: string }) => item.business_name);
		};
		expect(await names('is_verified=true')).toEqual(['Verified']);
		expect(await names('is_verified=false')).toEqual(['Draft', 'Inactive']);
		expect(await names('is_active=false')).toEqual(['Inactive']);
		expect(await names('status=draft')).toEqual([draft.business_name, verified.business_name]);
		expect(await names('status=inactive&is_verified=false')).toEqual(['Inactive']);
		expect(await names('status=active')).toEqual([]);
	});
});

describe('customers', () => {
	it('creates, gets, lists and updates a customer', async () => {
		const created = await api(fixture.sandbox, LIVE_KEY, 'POST', '/customers', {
			name: 'Northwind Health',
			status: 'prospect',
			contact_name: 'Sam Lee',
			contact_email: 'sam@northwind.example',
			contact_phone: '+1 555 0102',
			billing_rate: 42.5,
			notes: 'Met at the trade fair',
		});
		expect(created.status).toBe(201);
		expectShape(created.body, CUSTOMER_SHAPE);
		expect(created.body).toMatchObject({
			status: 'prospect',
			billing_rate: 42.5,
			contract_start: null,
		});

		const fetched = await api(fixture.sandbox, LIVE_KEY, 'GET', `/customers/${created.body.id}`);
		expect(fetched.body).toEqual(created.body);

		const updated = await api(fixture.sandbox, LIVE_KEY, 'PATCH', `/customers/${created.body.id}`, {
			status: 'active',
			notes: null,
			billing_rate: null,
		});
		expect(updated.status).toBe(200);
		expectShape(updated.body, CUSTOMER_SHAPE);
		expect(updated.body).toMatchObject({
			name: 'Northwind Health',
			status: 'active',
			notes: null,
			billing_rate: null,
			contact_name: 'Sam Lee',
		});

		await createCustomer(fixture.sandbox, LIVE_KEY, { name: 'Contoso', status: 'inactive' });
		const active = await api(fixture.sandbox, LIVE_KEY, 'GET', '/customers?status=active');
		expectList(active.body, CUSTOMER_SHAPE);
		expect(active.body.data.map((customer: { name: string }) => customer.name)).toEqual([
			'Northwind Health',
		]);
		const all = await api(fixture.sandbox, LIVE_KEY, 'GET', '/customers');
		expect(all.body.data.map((customer: { name: string }) => customer.name)).toEqual([
			'Contoso',
			'Northwind Health',
		]);
	});

	it('defaults a new customer to active with null optional fields', async () => {
		const customer = await createCustomer(fixture.sandbox);
		expect(customer).toMatchObject({
			status: 'active',
			contact_name: null,
			contact_email: null,
			contact_phone: null,
			billing_rate: null,
			notes: null,
		});
	});
});

describe('sites', () => {
	it('creates, gets, lists, filters and updates sites', async () => {
		const northwind = await createCustomer(fixture.sandbox);
		const contoso = await createCustomer(fixture.sandbox, LIVE_KEY, { name: 'Contoso' });
		const created = await api(fixture.sandbox, LIVE_KEY, 'POST', '/sites', {
			customer_id: northwind.id,
			name: 'Clinic East',
			contact_name: 'Ada',
			contact_phone: '+1 555 0103',
			orientation_required: true,
			staff_requirements: 'Two carers',
			notes: 'Back entrance',
		});
		expect(created.status).toBe(201);
		expectShape(created.body, SITE_SHAPE);
		expect(created.body).toMatchObject({
			customer_id: northwind.id,
			is_active: true,
			orientation_required: true,
		});

		const other = await api(fixture.sandbox, LIVE_KEY, 'POST', '/sites', {
			customer_id: contoso.id,
			name: 'HQ',
		});
		expect(other.body).toMatchObject({
			orientation_required: false,
			contact_name: null,
			is_active: true,
		});

		const fetched = await api(fixture.sandbox, LIVE_KEY, 'GET', `/sites/${created.body.id}`);
		expect(fetched.body).toEqual(created.body);

		const updated = await api(fixture.sandbox, LIVE_KEY, 'PATCH', `/sites/${created.body.id}`, {
			is_active: false,
			notes: null,
		});
		expect(updated.status).toBe(200);
		expectShape(updated.body, SITE_SHAPE);
		expect(updated.body).toMatchObject({
			is_active: false,
			notes: null,
			name: 'Clinic East',
			contact_name: 'Ada',
		});

		const list = async (query: string) =>
			(await api(fixture.sandbox, LIVE_KEY, 'GET', `/sites${query}`)).body.data.map(
				(site: { name: string }) => site.name,
			);
		expect(await list('')).toEqual(['HQ', 'Clinic East']);
		expect(await list(`?customer_id=${northwind.id}`)).toEqual(['Clinic East']);
		expect(await list('?is_active=true')).toEqual(['HQ']);
		expect(await list(`?customer_id=${contoso.id}&is_active=false`)).toEqual([]);
	});

	it.each([
		['another organization', GLOBEX_KEY],
		['the other mode', TEST_KEY],
	])('refuses a customer of %s', async (_label, foreignKey) => {
		const foreignCustomer = await createCustomer(fixture.sandbox, foreignKey);
		const answer = await api(fixture.sandbox, LIVE_KEY, 'POST', '/sites', {
			customer_id: foreignCustomer.id,
			name: 'Nope',
		});
		expect(answer.status).toBe(400);
		expect(answer.body.error.code).toBe('validation_failed');
		expect(answer.body.error.details).toEqual([
			{ field: 'customer_id', message: expect.stringContaining('no customer') },
		]);
		const sites = await api(fixture.sandbox, LIVE_KEY, 'GET', '/sites');
		expect(sites.body.data).toEqual([]);
	});
});

describe('test-mode data', () => {
	it('keeps the sandbox twin data apart from the live organization', async () => {
		await createMember(fixture.sandbox, LIVE_KEY, { business_name: 'Live one' });
		await createMember(fixture.sandbox, TEST_KEY, { business_name: 'Test one' });
		const live = await api(fixture.sandbox, LIVE_KEY, 'GET', '/members');
		const test = await api(fixture.sandbox, TEST_KEY, 'GET', '/members');
		expect(live.body.data.map((member: { business_name: string }) => member.business_name)).toEqual(
			['Live one'],
		);
		expect(test.body.data.map((member: { business_name: string }) => member.business_name)).toEqual(
			['Test one'],
		);
	});
});
