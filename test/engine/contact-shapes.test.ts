/**
 * Email addresses and phone numbers are checked for shape before any request, whether typed,
 * mapped by an expression from a form, or filled in by an agent (the tool runs the same execute).
 * The API stores any text, so without the check a typo becomes the member's address.
 */
import type { IDataObject } from 'n8n-workflow';

import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

const recordId = byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192');
const EMAIL_LIKE = 'an email address like name@example.com';
const PHONE_LIKE = 'a phone number like +1 555 0100 (5 to 15 digits)';

/** [case, resource, operation, parameters, the error message] */
const refusals: Array<[string, string, string, IDataObject, string]> = [
	[
		'a member email without @',
		'member',
		'create',
		{ businessName: 'Ada', additionalFields: { email: 'not-an-email' } },
		`The "Email" field must be ${EMAIL_LIKE}, but is "not-an-email" (item 0)`,
	],
	[
		'a member email without a domain',
		'member',
		'update',
		{ memberId: recordId, updateFields: { email: 'ada@localhost' } },
		`The "Email" field must be ${EMAIL_LIKE}, but is "ada@localhost" (item 0)`,
	],
	[
		'a member email with a space',
		'member',
		'create',
		{ businessName: 'Ada', additionalFields: { email: 'ada lovelace@example.com' } },
		`The "Email" field must be ${EMAIL_LIKE}, but is "ada lovelace@example.com" (item 0)`,
	],
	[
		'a member phone made of words',
		'member',
		'create',
		{ businessName: 'Ada', additionalFields: { phone: 'call me' } },
		`The "Phone" field must be ${PHONE_LIKE}, but is "call me" (item 0)`,
	],
	[
		'a member phone with too few digits',
		'member',
		'update',
		{ memberId: recordId, updateFields: { phone: '12' } },
		`The "Phone" field must be ${PHONE_LIKE}, but is "12" (item 0)`,
	],
	[
		'a customer contact email with two @',
		'customer',
		'create',
		{ name: 'Northwind', additionalFields: { contact_email: 'ops@@northwind.example' } },
		`The "Contact Email" field must be ${EMAIL_LIKE}, but is "ops@@northwind.example" (item 0)`,
	],
	[
		'a customer contact phone with too many digits',
		'customer',
		'update',
		{ customerId: recordId, updateFields: { contact_phone: '+1 555 0100 0100 0100 0100' } },
		`The "Contact Phone" field must be ${PHONE_LIKE}, but is "+1 555 0100 0100 0100 0100" (item 0)`,
	],
	[
		'a site contact phone with letters',
		'site',
		'create',
		{ customerId: recordId, name: 'Harbour', additionalFields: { contact_phone: '555-CARE' } },
		`The "Contact Phone" field must be ${PHONE_LIKE}, but is "555-CARE" (item 0)`,
	],
];

describe('email and phone fields are checked for shape before any request', () => {
	it.each(refusals)('refuses %s', async (_case, resource, operation, parameters, message) => {
		const { error, items } = await sandbox.runOperation(resource, operation, parameters);

		expect(error).toMatchObject({ name: 'NodeOperationError', message });
		expect(items).toEqual([]);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('names the item whose expression gives a bad address, and sends none of it', async () => {
		const { error } = await sandbox.runOperation(
			'member',
			'create',
			{
				businessName: '={{ $json.name }}',
				additionalFields: { email: '={{ $json.email }}', phone: '={{ $json.phone }}' },
			},
			[
				{ name: 'Riverside Care', email: 'dana@riverside.example', phone: '+1 555 0100' },
				{ name: 'Canal Home Help', email: 'hallo(at)canal.example', phone: '+31 20 555 0101' },
			],
		);

		expect(error?.message).toBe(
			`The "Email" field must be ${EMAIL_LIKE}, but is "hallo(at)canal.example" (item 1)`,
		);
		const bodies = (await sandbox.requests()).map((request) => JSON.stringify(request.body));
		expect(bodies).toHaveLength(1);
		expect(bodies.join()).not.toContain('hallo(at)');
	});

	it.each([
		['an email with subdomains and a plus', { email: 'dana+rota@mail.riverside.example' }],
		['a phone with spaces and a country code', { phone: '+44 113 496 0000' }],
		['a phone with brackets, dashes and an extension', { phone: '(555) 010-0100 ext. 12' }],
	])('sends %s as it is', async (_case, additionalFields) => {
		const { error } = await sandbox.runOperation('member', 'create', {
			businessName: 'Riverside Care',
			additionalFields,
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect((request.body as { contact: IDataObject }).contact).toEqual(additionalFields);
	});
});
