/** The demo world (world.ts): seeded records, and example events that refer to them. */
import { GLOBEX_KEY, LIVE_KEY, TEST_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';
import { SandboxControl } from '../../harness/sandbox-control';
import { SPEC_EVENT_TYPES } from '../support/spec-event-types';
import { WORLD_SIZE } from '../../sandbox/world';

const fixture = useSandbox();
const demo = () =>
	new SandboxControl(fixture.sandbox.origin, { organization: 'acme', mode: 'test' });

interface Page<T> {
	data: T[];
}
type Row = Record<string, unknown> & { id: string };

async function all(path: string, apiKey = TEST_KEY): Promise<Row[]> {
	return (await fixture.api<Page<Row>>('GET', `${path}?limit=100`, undefined, apiKey)).data;
}

async function exampleOf(type: string, overrides?: Record<string, unknown>) {
	return await demo().emitEvent(type, overrides, { mergeIntoExample: overrides !== undefined });
}

async function exists(path: string): Promise<Row> {
	return await fixture.api<Row>('GET', path, undefined, TEST_KEY);
}

describe('seeding the world', () => {
	it('fills the demo tenant with members, customers and sites with contacts and addresses', async () => {
		const counts = await demo().seedWorld();

		const [members, customers, sites] = await Promise.all([
			all('/members'),
			all('/customers'),
			all('/sites'),
		]);
		expect(counts).toEqual({ members: 24, customers: 8, sites: sites.length });
		expect(members).toHaveLength(WORLD_SIZE.members);
		expect(customers).toHaveLength(WORLD_SIZE.customers);
		expect(sites.length).toBeGreaterThanOrEqual(WORLD_SIZE.customers);
		expect(new Set(members.map((member) => member.business_name)).size).toBe(members.length);
		for (const member of members) {
			expect(member).toMatchObject({
				contact: { email: expect.stringMatching(/@example\.com$/), phone: expect.any(String) },
				address: { line1: expect.any(String), city: expect.any(String), country: 'US' },
			});
		}
		const customerIds = customers.map((customer) => customer.id);
		for (const site of sites) expect(customerIds).toContain(site.customer_id);
		expect(customers[customers.length - 1]).toMatchObject({
			name: 'Northwind Health',
			billing_rate: expect.any(Number),
		});
	});

	it('is the same world after a reset, and seeding twice adds nothing', async () => {
		await demo().seedWorld();
		const first = await all('/members');
		await fixture.control.reset();
		await demo().seedWorld();
		await demo().seedWorld();

		expect(await all('/members')).toEqual(
			first.map((member) => ({
				...member,
				created_at: expect.any(String),
				updated_at: expect.any(String),
			})),
		);
	});

	it('leaves the other organizations and modes empty', async () => {
		await demo().seedWorld();

		expect(await all('/members', LIVE_KEY)).toEqual([]);
		expect(await all('/customers', LIVE_KEY)).toEqual([]);
		expect(await all('/members', GLOBEX_KEY)).toEqual([]);
	});
});

describe('example events in a seeded tenant', () => {
	beforeEach(async () => {
		await demo().seedWorld();
	});

	it('timesheet.approved names a member, a customer and a site of that customer that exist', async () => {
		const { event, example_payload: example } = await exampleOf('timesheet.approved');

		expect(example).toBe(true);
		const member = await exists(`/members/${event.data.member_id as string}`);
		const customer = await exists(`/customers/${event.data.customer_id as string}`);
		const site = await exists(`/sites/${event.data.site_id as string}`);
		expect(member).toMatchObject({ status: 'active', is_verified: true });
		expect(site.customer_id).toBe(customer.id);
		expect(event.data).toMatchObject({ status: 'approved', hours_worked: 7.5 });
	});

	it('the invoice bills the shift’s timesheets at the customer’s rate', async () => {
		const timesheet = (await exampleOf('timesheet.approved')).event.data;
		const invoice = (await exampleOf('invoice.created')).event.data as {
			customer_id: string;
			subtotal: number;
			total: number;
			line_items: Array<{
				quantity: number;
				unit_price: number;
				amount: number;
				timesheet_id: string;
			}>;
		};
		const customer = await exists(`/customers/${invoice.customer_id}`);

		expect(invoice.customer_id).toBe(timesheet.customer_id);
		expect(invoice.line_items[0]).toMatchObject({
			timesheet_id: timesheet.id,
			quantity: timesheet.hours_worked,
		});
		for (const line of invoice.line_items) {
			expect(line.unit_price).toBe(customer.billing_rate);
			expect(line.amount).toBeCloseTo(line.quantity * line.unit_price, 2);
		}
		const sum = invoice.line_items.reduce((total, line) => total + line.amount, 0);
		expect(invoice.subtotal).toBeCloseTo(sum, 2);
		expect(invoice.total).toBe(invoice.subtotal);
	});

	it(`every one of the ${SPEC_EVENT_TYPES.length} examples refers only to records that exist`, async () => {
		const references: Array<[string, string]> = [];
		for (const type of SPEC_EVENT_TYPES) {
			const { data } = (await exampleOf(type)).event;
			const [family] = type.split('.');
			const own = { member: '/members', customer: '/customers', customer_location: '/sites' }[
				family
			];
			if (own) references.push([type, `${own}/${data.id as string}`]);
			if (data.member_id) references.push([type, `/members/${data.member_id as string}`]);
			if (data.customer_id) references.push([type, `/customers/${data.customer_id as string}`]);
			if (data.site_id) references.push([type, `/sites/${data.site_id as string}`]);
		}
		expect(references.length).toBeGreaterThan(30);
		for (const [type, path] of references) {
			await expect(exists(path).then(() => `${type} ${path}`)).resolves.toBe(`${type} ${path}`);
		}
	});
});

describe('example overrides', () => {
	it('deep-merges into the example payload instead of replacing it', async () => {
		const plain = (await exampleOf('member.updated')).event.data;
		const { event } = await exampleOf('member.updated', {
			contact: { phone: '+1 555 0199' },
			capacity: 5,
		});

		expect(event.data).toEqual({
			...plain,
			created_at: expect.any(String),
			updated_at: expect.any(String),
			contact: { email: (plain.contact as { email: string }).email, phone: '+1 555 0199' },
			capacity: 5,
		});
	});

	it('cannot go together with data', async () => {
		const answer = await fetch(`${fixture.sandbox.origin}/__sandbox/events`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				organization: 'acme',
				mode: 'live',
				type: 'member.updated',
				data: { id: 'x' },
				example_overrides: { capacity: 2 },
			}),
		});
		expect(answer.status).toBe(400);
		expect(await answer.text()).toContain('example_overrides');
	});
});
