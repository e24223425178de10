import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId, runNode } from '../support/engine/harness';
import type { RunNodeResult } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';
import { EXAMPLE_ADDRESSES, setAddress } from '../../harness/addresses';
import { LIVE_KEY } from '../../harness/constants';

const sandbox = useSandbox({ webhooks: { autoDisableAfter: 1000 } });

/** Gives a stored record an address on file: 12 High Street, Leeds, LS1 4AP, GB. */
function setLeedsAddress(collection: 'members' | 'customers' | 'sites', id: string): void {
	setAddress(sandbox.sandbox, LIVE_KEY, collection, id, EXAMPLE_ADDRESSES[0]);
}

async function run(
	parameters: INodeParameters,
	typeVersion: number,
	inputItems?: IDataObject[],
): Promise<RunNodeResult> {
	return await runNode({
		parameters,
		credentials: sandbox.credentials(),
		typeVersion,
		inputItems,
	});
}

interface ResourceCase {
	resource: string;
	/** Creates one record through the API and returns the parameters of an operation reading it. */
	arrange(): Promise<{ parameters: INodeParameters; raw: IDataObject }>;
	simplified(raw: IDataObject): IDataObject;
	selected: string[];
}

const cases: ResourceCase[] = [
	{
		resource: 'member',
		async arrange() {
			const member = await sandbox.api('POST', '/members', {
				business_name: 'Ada Care',
				capacity: 2,
				contact: { email: 'ada@example.com' },
			});
			setLeedsAddress('members', member.id as string);
			const raw = await sandbox.api('GET', `/members/${member.id as string}`);
			return { parameters: { operation: 'get', memberId: byId(member.id as string) }, raw };
		},
		simplified: (raw) => ({
			business_name: 'Ada Care',
			display_name: null,
			status: 'draft',
			is_verified: false,
			capacity: 2,
			email: 'ada@example.com',
			phone: null,
			address: '12 High Street, Leeds, LS1 4AP, GB',
			id: raw.id,
		}),
		selected: ['business_name', 'contact'],
	},
	{
		resource: 'customer',
		async arrange() {
			const customer = await sandbox.api('POST', '/customers', {
				name: 'Northwind Care Homes',
				status: 'active',
				contact_email: 'ops@northwind.example',
				billing_rate: 31.5,
			});
			setLeedsAddress('customers', customer.id as string);
			const raw = await sandbox.api('GET', `/customers/${customer.id as string}`);
			return { parameters: { operation: 'getAll', returnAll: true }, raw };
		},
		simplified: (raw) => ({
			name: 'Northwind Care Homes',
			status: 'active',
			contact_name: null,
			contact_email: 'ops@northwind.example',
			contact_phone: null,
			address: '12 High Street, Leeds, LS1 4AP, GB',
			billing_rate: 31.5,
			id: raw.id,
		}),
		selected: ['name', 'billing_rate'],
	},
	{
		resource: 'site',
		async arrange() {
			const customer = await sandbox.api('POST', '/customers', { name: 'Northwind' });
			const site = await sandbox.api('POST', '/sites', {
				customer_id: customer.id,
				name: 'Leeds Branch',
				orientation_required: true,
			});
			setLeedsAddress('sites', site.id as string);
			const raw = await sandbox.api('GET', `/sites/${site.id as string}`);
			return { parameters: { operation: 'get', siteId: byId(site.id as string) }, raw };
		},
		simplified: (raw) => ({
			name: 'Leeds Branch',
			is_active: true,
			contact_name: null,
			contact_phone: null,
			address: '12 High Street, Leeds, LS1 4AP, GB',
			orientation_required: true,
			customer_id: raw.customer_id,
			id: raw.id,
		}),
		selected: ['address'],
	},
	{
		resource: 'webhookEndpoint',
		async arrange() {
			const endpoint = await sandbox.api('POST', '/webhook-endpoints', {
				url: 'https://127.0.0.1:9/hooks',
				description: 'Payroll',
				events: ['member.created'],
			});
			const raw = await sandbox.api('GET', `/webhook-endpoints/${endpoint.id as string}`);
			return {
				parameters: { operation: 'get', endpointId: byId(endpoint.id as string) },
				raw,
			};
		},
		simplified: (raw) => ({
			description: 'Payroll',
			url: 'https://127.0.0.1:9/hooks',
			enabled: true,
			events: ['member.created'],
			disabled_reason: null,
			last_success_at: null,
			id: raw.id,
		}),
		selected: ['url', 'events'],
	},
	{
		resource: 'webhookDelivery',
		async arrange() {
			await sandbox.api('POST', '/webhook-endpoints', {
				url: 'https://127.0.0.1:9/hooks',
				events: ['*'],
			});
			await sandbox.control.emitEvent('member.created');
			await sandbox.control.settleDeliveries();
			const { data } = await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-deliveries');
			return { parameters: { operation: 'getAll', returnAll: true }, raw: data[0] };
		},
		simplified: (raw) => ({
			event_type: 'member.created',
			status: raw.status,
			attempts: raw.attempts,
			last_response_status: raw.last_response_status,
			last_error: raw.last_error,
			created_at: raw.created_at,
			endpoint_id: raw.endpoint_id,
			id: raw.id,
		}),
		selected: ['status'],
	},
];

describe.each(cases)(
	'Output of $resource records',
	({ resource, arrange, simplified, selected }) => {
		it('is Simplified by default in a new (version 2) node', async () => {
			const { parameters, raw } = await arrange();
			const { items, error } = await run({ resource, ...parameters }, 2);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual([simplified(raw)]);
			// the columns of the editor's table, in order: the human name first, the UUIDs last
			expect(Object.keys(items[0].json)).toEqual(Object.keys(simplified(raw)));
		});

		it('is the API record with Raw', async () => {
			const { parameters, raw } = await arrange();
			const { items } = await run({ resource, ...parameters, output: 'raw' }, 2);
			expect(items.map((item) => item.json)).toEqual([raw]);
		});

		it('keeps the ID and the picked fields with Selected Fields', async () => {
			const { parameters, raw } = await arrange();
			const { items } = await run(
				{ resource, ...parameters, output: 'fields', fields: selected },
				2,
			);
			const expected = Object.fromEntries(
				['id', ...selected].map((field) => [field, raw[field]]),
			) as IDataObject;
			expect(items.map((item) => item.json)).toEqual([expected]);
		});

		it('stays Raw in a version 1 node, as workflows saved before the choice expect', async () => {
			const { parameters, raw } = await arrange();
			const { items } = await run({ resource, ...parameters }, 1);
			expect(items.map((item) => item.json)).toEqual([raw]);
		});
	},
);

describe('Output', () => {
	it('shapes what a write operation returns (Create, Verify)', async () => {
		const created = await run(
			{ resource: 'member', operation: 'create', businessName: 'Bright Nursing' },
			2,
		);
		expect(Object.keys(created.items[0].json)).toEqual([
			'business_name',
			'display_name',
			'status',
			'is_verified',
			'capacity',
			'email',
			'phone',
			'address',
			'id',
		]);
		expect(created.items[0].json.address).toBeNull();
		const verified = await run(
			{
				resource: 'member',
				operation: 'verify',
				memberId: byId(created.items[0].json.id as string),
				output: 'fields',
				fields: ['is_verified'],
			},
			2,
		);
		expect(verified.items[0].json).toEqual({ id: created.items[0].json.id, is_verified: true });
	});

	it('keeps the signing secret a Create returns once, whatever the Output', async () => {
		const { items, error } = await run(
			{
				resource: 'webhookEndpoint',
				operation: 'create',
				url: 'https://127.0.0.1:9/hooks',
				events: ['member.created'],
				outputSecret: true,
			},
			2,
		);
		expect(error).toBeUndefined();
		expect(items[0].json.secret).toMatch(/^whsec_/);
		expect(items[0].json).not.toHaveProperty('secret_preview');
	});

	it('refuses a Fields value that is not a list, before any request', async () => {
		const member = await sandbox.api('POST', '/members', { business_name: 'Ada Care' });
		await sandbox.clearRequests();
		const { error } = await run(
			{
				resource: 'member',
				operation: 'get',
				memberId: byId(member.id as string),
				output: 'fields',
				fields: '={{ $json.pick }}',
			},
			2,
			[{ pick: 'business_name' }],
		);
		expect(error?.message).toBe(
			'The "Fields" field must be a list of field names, but is "business_name" (item 0)',
		);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('leaves the organization as the API returns it (it has no Output choice)', async () => {
		const organization = await sandbox.api('GET', '/organization');
		const { items } = await run({ resource: 'organization', operation: 'get' }, 2);
		expect(items.map((item) => item.json)).toEqual([organization]);
	});
});
