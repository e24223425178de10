import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

describe('Customer', () => {
	it('creates a customer with its optional fields', async () => {
		const additionalFields = {
			status: 'prospect',
			contact_name: 'Nina North',
			contact_email: 'nina@northwind.example',
			contact_phone: '+1 555 0100',
			billing_rate: 42.5,
			notes: 'Met at the trade fair',
		};
		const { items, error } = await sandbox.runOperation('customer', 'create', {
			name: 'Northwind Care Homes',
			additionalFields,
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/api/v1/customers' });
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.body).toEqual({ name: 'Northwind Care Homes', ...additionalFields });
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				name: 'Northwind Care Homes',
				status: 'prospect',
				billing_rate: 42.5,
			}),
		]);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('gets a customer by ID', async () => {
		const customer = await sandbox.api('POST', '/customers', { name: 'Northwind' });
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('customer', 'get', {
			customerId: byId(customer.id as string),
		});

		expect(items.map((item) => item.json)).toEqual([customer]);
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'GET',
			path: `/api/v1/customers/${customer.id as string}`,
			body: null,
		});
		expect(request.headers['content-type']).toBeUndefined();
		expect(request.headers.accept).toBe('application/json');
	});

	it('lists customers filtered by status', async () => {
		await sandbox.api('POST', '/customers', { name: 'Active Co', status: 'active' });
		await sandbox.api('POST', '/customers', { name: 'Prospect Co', status: 'prospect' });
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('customer', 'getAll', {
			returnAll: true,
			filters: { status: 'prospect' },
		});

		expect(items.map((item) => item.json.name)).toEqual(['Prospect Co']);
		const [request] = await sandbox.requests();
		expect(request.query).toMatchObject({ status: 'prospect', limit: '100' });
	});

	it('updates a customer and clears its billing rate and notes', async () => {
		const customer = await sandbox.api('POST', '/customers', {
			name: 'Northwind',
			billing_rate: 40,
			notes: 'old',
			contact_name: 'Nina',
		});
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('customer', 'update', {
			customerId: byId(customer.id as string),
			updateFields: { status: 'inactive' },
			clearFields: ['billing_rate', 'notes'],
		});

		const [request] = await sandbox.requests();
		expect(request.body).toEqual({ status: 'inactive', billing_rate: null, notes: null });
		expect(items[0].json).toMatchObject({
			name: 'Northwind',
			status: 'inactive',
			billing_rate: null,
			notes: null,
			contact_name: 'Nina',
		});
	});

	it('refuses an empty customer name before any request', async () => {
		const created = await sandbox.runOperation('customer', 'create', {
			name: '={{ $json.company }}',
		});
		const updated = await sandbox.runOperation('customer', 'update', {
			customerId: byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192'),
			updateFields: { name: ' ' },
		});

		for (const { error } of [created, updated]) {
			expect(error).toMatchObject({
				name: 'NodeOperationError',
				message: 'The "Name" field must not be empty (item 0)',
			});
		}
		expect(await sandbox.requests()).toEqual([]);
	});
});
