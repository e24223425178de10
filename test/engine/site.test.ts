import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

async function createCustomer(name = 'Northwind'): Promise<string> {
	const customer = await sandbox.api('POST', '/customers', { name });
	return customer.id as string;
}

describe('Site', () => {
	it('creates a site for the customer picked', async () => {
		const customerId = await createCustomer();
		await sandbox.clearRequests();

		const additionalFields = {
			contact_name: 'Hal',
			contact_phone: '+1 555 0101',
			orientation_required: true,
			staff_requirements: 'Two carers per shift',
			notes: 'Parking at the back',
		};
		const { items, error } = await sandbox.runOperation('site', 'create', {
			customerId: { __rl: true, mode: 'list', value: customerId, cachedResultName: 'Northwind' },
			name: 'Harbour Branch',
			additionalFields,
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/api/v1/sites' });
		expect(request.body).toEqual({
			customer_id: customerId,
			name: 'Harbour Branch',
			...additionalFields,
		});
		expect(items[0].json).toMatchObject({
			customer_id: customerId,
			name: 'Harbour Branch',
			is_active: true,
		});
	});

	it('gets a site by ID', async () => {
		const site = await sandbox.api('POST', '/sites', {
			customer_id: await createCustomer(),
			name: 'Depot',
		});
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('site', 'get', {
			siteId: byId(site.id as string),
		});

		expect(items.map((item) => item.json)).toEqual([site]);
	});

	it("lists one customer's active sites", async () => {
		const northwind = await createCustomer('Northwind');
		const contoso = await createCustomer('Contoso');
		await sandbox.api('POST', '/sites', { customer_id: northwind, name: 'North A' });
		const closed = await sandbox.api('POST', '/sites', { customer_id: northwind, name: 'North B' });
		await sandbox.api('PATCH', `/sites/${closed.id as string}`, { is_active: false });
		await sandbox.api('POST', '/sites', { customer_id: contoso, name: 'Contoso A' });
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('site', 'getAll', {
			returnAll: true,
			filters: { customer_id: byId(northwind), is_active: true },
		});

		expect(items.map((item) => item.json.name)).toEqual(['North A']);
		const [request] = await sandbox.requests();
		expect(request.query).toMatchObject({ customer_id: northwind, is_active: 'true' });
	});

	it('deactivates a site and clears its staff requirements', async () => {
		const site = await sandbox.api('POST', '/sites', {
			customer_id: await createCustomer(),
			name: 'Depot',
			staff_requirements: 'Forklift licence',
		});
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('site', 'update', {
			siteId: byId(site.id as string),
			updateFields: { is_active: false },
			clearFields: ['staff_requirements'],
		});

		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'PATCH',
			body: { is_active: false, staff_requirements: null },
		});
		expect(items[0].json).toMatchObject({
			name: 'Depot',
			is_active: false,
			staff_requirements: null,
		});
	});

	it('refuses a malformed customer filter or an empty site name before any request', async () => {
		const filtered = await sandbox.runOperation('site', 'getAll', {
			returnAll: true,
			filters: { customer_id: byId('={{ "not-a-uuid" }}') },
		});
		const unnamed = await sandbox.runOperation('site', 'create', {
			customerId: byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192'),
			name: '   ',
		});

		expect(filtered.error?.message).toBe(
			'The "Customer" field must be a UUID, but is "not-a-uuid" (item 0)',
		);
		expect(unnamed.error?.message).toBe('The "Name" field must not be empty (item 0)');
		expect(await sandbox.requests()).toEqual([]);
	});
});
