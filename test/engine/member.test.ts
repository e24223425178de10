import type { IDataObject } from 'n8n-workflow';

import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';
import { GLOBEX_KEY } from '../../harness/constants';

const sandbox = useSandbox();

async function createMember(
	body: IDataObject = { business_name: 'Ada Care' },
): Promise<IDataObject> {
	return await sandbox.api('POST', '/members', body);
}

describe('Member', () => {
	it('creates a member with contact details mapped into the contact object', async () => {
		const { items, error } = await sandbox.runOperation('member', 'create', {
			businessName: 'Ada Care',
			additionalFields: {
				display_name: 'Ada',
				description: 'Home care',
				capacity: 3,
				email: 'ada@example.com',
				phone: '+44 20 7946 0000',
			},
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({ method: 'POST', path: '/api/v1/members' });
		expect(request.body).toEqual({
			business_name: 'Ada Care',
			display_name: 'Ada',
			description: 'Home care',
			capacity: 3,
			contact: { email: 'ada@example.com', phone: '+44 20 7946 0000' },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			business_name: 'Ada Care',
			status: 'draft',
			is_verified: false,
			contact: { email: 'ada@example.com', phone: '+44 20 7946 0000' },
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('creates one member per form submission, mapped with expressions', async () => {
		const { items } = await sandbox.runOperation(
			'member',
			'create',
			{
				businessName: '={{ $json.company }}',
				additionalFields: { email: '={{ $json.email }}' },
			},
			[
				{ company: 'Bright Nursing', email: 'hello@bright.example' },
				{ company: 'Calm Carers', email: 'team@calm.example' },
			],
		);

		expect(
			items.map((item) => [item.json.business_name, (item.json.contact as IDataObject).email]),
		).toEqual([
			['Bright Nursing', 'hello@bright.example'],
			['Calm Carers', 'team@calm.example'],
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('gets a member by ID', async () => {
		const member = await createMember();
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('member', 'get', {
			memberId: byId(member.id as string),
		});

		expect(items.map((item) => item.json)).toEqual([member]);
		expect((await sandbox.requests()).map(({ method, path }) => `${method} ${path}`)).toEqual([
			`GET /api/v1/members/${member.id as string}`,
		]);
	});

	it('lists members with the status, verified and active filters', async () => {
		const verified = await createMember({ business_name: 'Verified One' });
		await createMember({ business_name: 'Unverified One' });
		await sandbox.api('POST', `/members/${verified.id as string}/verify`, {});
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('member', 'getAll', {
			returnAll: true,
			filters: { is_verified: true, is_active: true, status: 'draft' },
		});

		expect(items.map((item) => item.json.business_name)).toEqual(['Verified One']);
		const [request] = await sandbox.requests();
		expect(request.query).toMatchObject({
			is_verified: 'true',
			is_active: 'true',
			status: 'draft',
		});
	});

	it('pairs every member of Get Many with the input item it was listed for', async () => {
		await createMember({ business_name: 'Listed One' });
		await createMember({ business_name: 'Listed Two' });

		const { items } = await sandbox.runOperation(
			'member',
			'getAll',
			{ returnAll: false, limit: 2 },
			[{ run: 'first' }, { run: 'second' }, { run: 'third' }],
		);

		// the engine refills pairedItem only when inputs and outputs match one to one
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
	});

	it('updates only the fields set, and clears the fields picked in Clear Fields', async () => {
		const member = await createMember({
			business_name: 'Ada Care',
			display_name: 'Ada',
			description: 'Home care',
			contact: { email: 'ada@example.com', phone: '+44 20 7946 0000' },
		});
		await sandbox.clearRequests();

		const { items, error } = await sandbox.runOperation('member', 'update', {
			memberId: byId(member.id as string),
			updateFields: { capacity: 5, email: 'ada@new.example' },
			clearFields: ['display_name', 'contact.phone'],
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'PATCH',
			path: `/api/v1/members/${member.id as string}`,
		});
		expect(request.body).toEqual({
			capacity: 5,
			display_name: null,
			contact: { email: 'ada@new.example', phone: null },
		});
		expect(items[0].json).toMatchObject({
			business_name: 'Ada Care',
			description: 'Home care',
			capacity: 5,
			display_name: null,
			contact: { email: 'ada@new.example', phone: null },
		});
	});

	it('refuses to set and clear the same field, or to update nothing, before any request', async () => {
		const member = await createMember();
		await sandbox.clearRequests();

		const both = await sandbox.runOperation('member', 'update', {
			memberId: byId(member.id as string),
			updateFields: { email: 'ada@example.com' },
			clearFields: ['contact.email'],
		});
		const nothing = await sandbox.runOperation('member', 'update', {
			memberId: byId(member.id as string),
		});

		expect(both.error?.message).toBe(
			'The "Clear Fields" field lists "contact.email", which Update Fields also sets (item 0)',
		);
		expect(nothing.error?.message).toBe(
			'The "Update Fields" field must set or clear at least one field (an empty value is not sent: Clear Fields empties a field) (item 0)',
		);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('verifies a member, sending an empty JSON object', async () => {
		const member = await createMember();
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('member', 'verify', {
			memberId: byId(member.id as string),
		});

		expect(items[0].json).toMatchObject({ id: member.id, is_verified: true });
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/api/v1/members/${member.id as string}/verify`,
			body: {},
		});
	});

	it('deactivates a member, sending an empty JSON object', async () => {
		const member = await createMember();
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('member', 'deactivate', {
			memberId: byId(member.id as string),
		});

		expect(items[0].json).toMatchObject({ id: member.id, is_active: false, status: 'inactive' });
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/api/v1/members/${member.id as string}/deactivate`,
			body: {},
		});
	});

	it('treats a member of another organization as nonexistent', async () => {
		const globexMember = await sandbox.api<IDataObject>(
			'POST',
			'/members',
			{ business_name: 'Globex Temp' },
			GLOBEX_KEY,
		);

		const { error } = await sandbox.runOperation('member', 'get', {
			memberId: byId(globexMember.id as string),
		});

		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(error?.message).toContain('does not exist in this organization');
	});

	it('leaves a typed-in malformed ID to n8n, which refuses to run the workflow', async () => {
		// n8n-core 2.8.1 says "The workflow has issues"; 2.4x names the node and the issue.
		await expect(sandbox.runOperation('member', 'get', { memberId: byId('42') })).rejects.toThrow(
			/The workflow has issues|The 'Workforce Management' node has issues:\s+- Not a valid member ID/,
		);
		expect(await sandbox.requests()).toEqual([]);
	});

	describe('refuses bad input before any request', () => {
		const memberId = byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192');
		const cases: Array<[string, string, IDataObject, string]> = [
			[
				'an empty business name',
				'create',
				{ businessName: '  ' },
				'The "Business Name" field must not be empty (item 0)',
			],
			[
				'a negative capacity',
				'create',
				{ businessName: 'Ada', additionalFields: { capacity: -1 } },
				'The "Capacity" field must be a whole number from 0 to 9007199254740991, but is -1 (item 0)',
			],
			[
				'a fractional capacity',
				'update',
				{ memberId, updateFields: { capacity: 1.5 } },
				'The "Capacity" field must be a whole number from 0 to 9007199254740991, but is 1.5 (item 0)',
			],
			[
				'a capacity above 9007199254740991',
				'create',
				{ businessName: 'Ada', additionalFields: { capacity: 9007199254740992 } },
				'The "Capacity" field must be a whole number from 0 to 9007199254740991, but is 9007199254740992 (item 0)',
			],
			[
				'a blank business name in an update',
				'update',
				{ memberId, updateFields: { business_name: '  ' } },
				'The "Business Name" field must not be empty (item 0)',
			],
			[
				'a malformed member ID from an expression',
				'verify',
				{ memberId: byId('={{ "4" + "2" }}') },
				'The "Member" field must be a UUID, but is "42" (item 0)',
			],
			[
				'a limit below 1',
				'getAll',
				{ returnAll: false, limit: 0 },
				'The "Limit" field must be a whole number of at least 1, but is 0 (item 0)',
			],
		];

		it.each(cases)('%s', async (_case, operation, parameters, message) => {
			const { error, items } = await sandbox.runOperation('member', operation, parameters);

			expect(error).toMatchObject({ name: 'NodeOperationError', message });
			expect(items).toEqual([]);
			expect(await sandbox.requests()).toEqual([]);
		});
	});
});
