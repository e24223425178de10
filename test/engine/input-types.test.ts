import type { IDataObject } from 'n8n-workflow';

import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

const memberId = byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192');
const endpointId = byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708193');
const newEndpoint = { url: 'https://example.com/hook', events: ['member.created'] };

/** [case, resource, operation, parameters, the error message] */
type RefusalCase = [string, string, string, IDataObject, string];

/** Values an expression hands a field; n8n passes them on without checking their type. */
const refusals: RefusalCase[] = [
	[
		'a number as a member ID',
		'member',
		'get',
		{ memberId: byId('={{ 42 }}') },
		'The "Member" field must be a UUID, but is the number 42 (item 0)',
	],
	[
		'an object as Business Name',
		'member',
		'create',
		{ businessName: '={{ { "name": "Ada" } }}' },
		'The "Business Name" field must be text, but is an object (item 0)',
	],
	[
		'a number as Business Name',
		'member',
		'create',
		{ businessName: '={{ 7 }}' },
		'The "Business Name" field must be text, but is the number 7 (item 0)',
	],
	...(
		[
			['display_name', 'Display Name'],
			['email', 'Email'],
			['phone', 'Phone'],
			['description', 'Description'],
		] as const
	).map(
		([name, field]): RefusalCase => [
			`an object as the member's ${field}`,
			'member',
			'create',
			{ businessName: 'Ada', additionalFields: { [name]: '={{ { "a": 1 } }}' } },
			`The "${field}" field must be text, but is an object (item 0)`,
		],
	),
	[
		"an array as the member's Display Name in an update",
		'member',
		'update',
		{ memberId, updateFields: { display_name: '={{ ["Ada"] }}' } },
		'The "Display Name" field must be text, but is an array (item 0)',
	],
	[
		'an object as Billing Rate',
		'customer',
		'create',
		{ name: 'Globex', additionalFields: { billing_rate: '={{ { "rate": 1 } }}' } },
		'The "Billing Rate" field must be a number, but is an object (item 0)',
	],
	[
		'an array as Notes',
		'customer',
		'create',
		{ name: 'Globex', additionalFields: { notes: '={{ ["a", "b"] }}' } },
		'The "Notes" field must be text, but is an array (item 0)',
	],
	[
		'a number among the events',
		'webhookEndpoint',
		'create',
		{ ...newEndpoint, events: '={{ [123, "member.created"] }}' },
		'The "Events" field must list event names as text, but entry 0 is the number 123 (item 0)',
	],
	[
		'an https URL with one slash',
		'webhookEndpoint',
		'create',
		{ ...newEndpoint, url: 'https:/example.com/hook' },
		'The "URL" field must start with https:// (two slashes), but is "https:/example.com/hook" (item 0)',
	],
	[
		'an https URL with a user name and password',
		'webhookEndpoint',
		'create',
		{ ...newEndpoint, url: 'https://ada:s3cret@example.com/hook' },
		'The "URL" field must not contain a user name or password (user:password@) (item 0)',
	],
	[
		'an http URL with a user name and password, not repeated',
		'webhookEndpoint',
		'create',
		{ ...newEndpoint, url: 'http://ada:s3cret@example.com/hook' },
		'The "URL" field must be an https:// URL, but is "http://***@example.com/hook" (item 0)',
	],
	[
		'an https URL with a space inside',
		'webhookEndpoint',
		'update',
		{ endpointId, updateFields: { url: 'https://example.com/my hook' } },
		'The "URL" field must not contain spaces, but is "https://example.com/my hook" (item 0)',
	],
];

describe('every field is type-checked before any request', () => {
	it.each(refusals)('%s', async (_case, resource, operation, parameters, message) => {
		const { error, items } = await sandbox.runOperation(resource, operation, parameters);

		expect(error).toMatchObject({ name: 'NodeOperationError', message });
		// The error carries the node's parameters as typed; its own words never repeat a password.
		expect(`${error?.message} ${error?.stack}`).not.toContain('s3cret');
		expect(items).toEqual([]);
		expect(await sandbox.requests()).toEqual([]);
	});

	it('sends a URL written with an upper-case scheme or surrounding spaces as https://host/path', async () => {
		const { error, items } = await sandbox.runOperation('webhookEndpoint', 'create', {
			...newEndpoint,
			url: ' HTTPS://example.com/hook ',
		});

		expect(error).toBeUndefined();
		expect(items[0].json.url).toBe('https://example.com/hook');
		const [request] = await sandbox.requests();
		expect((request.body as IDataObject).url).toBe('https://example.com/hook');
	});
});
