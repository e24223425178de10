/**
 * An optional field whose value is the empty string means "nothing given" (a blank form field, an
 * expression that gives ""): Create and Update leave it out of the request. Emptying a field on the
 * record stays what Clear Fields does.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { WorkforceManagement } from '../../nodes/WorkforceManagement/WorkforceManagement.node';
import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

async function createMember(body: IDataObject): Promise<IDataObject> {
	return await sandbox.api('POST', '/members', body);
}

describe('empty optional fields', () => {
	it('are not sent on Create: a name-only sign-up makes a member with no contact', async () => {
		const { error } = await sandbox.runOperation('member', 'create', {
			businessName: 'Ada Care',
			additionalFields: { email: '', phone: '', description: '', display_name: '' },
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request.body).toEqual({ business_name: 'Ada Care' });
	});

	it('are not sent on Create when an expression gives "", item by item', async () => {
		const { items, error } = await sandbox.runOperation(
			'member',
			'create',
			{
				businessName: '={{ $json.name }}',
				additionalFields: { email: '={{ $json.email }}', phone: '={{ $json.phone }}' },
			},
			[
				{ name: 'Bright Nursing', email: 'hello@bright.example', phone: '' },
				{ name: 'Calm Carers', email: '', phone: '+1 555 0100' },
			],
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect((await sandbox.requests()).map((request) => request.body)).toEqual([
			{ business_name: 'Bright Nursing', contact: { email: 'hello@bright.example' } },
			{ business_name: 'Calm Carers', contact: { phone: '+1 555 0100' } },
		]);
	});

	it('are not sent on Create of a customer or a site either', async () => {
		const customer = await sandbox.runOperation('customer', 'create', {
			name: 'Northwind',
			additionalFields: { contact_email: '={{ "" }}', notes: '' },
		});
		const site = await sandbox.runOperation('site', 'create', {
			customerId: byId(customer.items[0].json.id as string),
			name: 'Leeds Branch',
			additionalFields: { contact_phone: '', staff_requirements: '' },
		});

		expect(customer.error).toBeUndefined();
		expect(site.error).toBeUndefined();
		expect((await sandbox.requests()).map((request) => request.body)).toEqual([
			{ name: 'Northwind' },
			{ customer_id: customer.items[0].json.id, name: 'Leeds Branch' },
		]);
	});

	it('leave the record as it is on Update, while Clear Fields empties a field', async () => {
		const member = await createMember({
			business_name: 'Ada Care',
			description: 'Home care',
			contact: { email: 'ada@example.com', phone: '+44 20 7946 0000' },
		});
		await sandbox.clearRequests();

		const { items, error } = await sandbox.runOperation('member', 'update', {
			memberId: byId(member.id as string),
			updateFields: { email: '={{ "" }}', phone: '+1 555 0100', display_name: '' },
			clearFields: ['description'],
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request.body).toEqual({ contact: { phone: '+1 555 0100' }, description: null });
		expect(items[0].json).toMatchObject({
			description: null,
			contact: { email: 'ada@example.com', phone: '+1 555 0100' },
		});
	});

	it('make an Update of nothing but empty fields an error that points at Clear Fields, before any request', async () => {
		const member = await createMember({ business_name: 'Ada Care' });
		await sandbox.clearRequests();

		const { error } = await sandbox.runOperation('member', 'update', {
			memberId: byId(member.id as string),
			updateFields: { email: '', business_name: '' },
		});

		expect(error?.message).toBe(
			'The "Update Fields" field must set or clear at least one field (an empty value is not sent: Clear Fields empties a field) (item 0)',
		);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('still make a required field refuse an empty value', async () => {
		const { error } = await sandbox.runOperation('member', 'create', {
			businessName: '={{ "" }}',
			additionalFields: { email: 'ada@example.com' },
		});

		expect(error?.message).toBe('The "Business Name" field must not be empty (item 0)');
		expect(await sandbox.requests()).toEqual([]);
	});
});

describe('the field hints', () => {
	const properties = new WorkforceManagement().description.properties;
	function collectionOf(operation: string, name: string) {
		const collection = properties.find(
			(property) =>
				property.name === name &&
				property.displayOptions?.show?.resource?.includes('member') &&
				property.displayOptions?.show?.operation?.includes(operation),
		);
		return Object.fromEntries(
			(collection?.options as INodeProperties[]).map((field) => [field.name, field.hint]),
		);
	}

	it('state the rule on Create and Update, and name Clear Fields where it applies', () => {
		const create = collectionOf('create', 'additionalFields');
		const update = collectionOf('update', 'updateFields');

		expect(create.email).toBe('Not sent when empty (a blank form field, an expression giving "")');
		expect(update.email).toBe(
			'Left as it is when empty (a blank form field, an expression giving ""): to empty it on the record, pick it in Clear Fields',
		);
		// not in Clear Fields: the API has no empty business name
		expect(update.business_name).toBe(
			'Left as it is when empty (a blank form field, an expression giving "")',
		);
		// a field with a hint of its own keeps it
		expect(create.capacity).toMatch(/^A whole number from 0/);
	});
});
