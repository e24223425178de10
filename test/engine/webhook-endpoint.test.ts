import type { IDataObject } from 'n8n-workflow';

import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

// Nothing listens there: test deliveries fail at once instead of waiting on a network.
const ENDPOINT_URL = 'https://127.0.0.1:9/hooks/workforce';

async function createEndpoint(body: IDataObject = {}): Promise<IDataObject> {
	return await sandbox.api('POST', '/webhook-endpoints', {
		url: ENDPOINT_URL,
		events: ['member.created'],
		...body,
	});
}

describe('Webhook Endpoint', () => {
	it('creates an endpoint and leaves the signing secret out of the output by default', async () => {
		const { items, error } = await sandbox.runOperation('webhookEndpoint', 'create', {
			url: ENDPOINT_URL,
			events: ['member.created', 'member.verified'],
			additionalFields: { description: 'CRM sync' },
		});

		expect(error).toBeUndefined();
		const [request] = await sandbox.requests();
		expect(request.body).toEqual({
			url: ENDPOINT_URL,
			events: ['member.created', 'member.verified'],
			description: 'CRM sync',
		});
		expect(items[0].json).toMatchObject({
			url: ENDPOINT_URL,
			events: ['member.created', 'member.verified'],
			description: 'CRM sync',
			enabled: true,
		});
		expect(items[0].json.secret_preview).toMatch(/^whsec_/);
		expect(items[0].json).not.toHaveProperty('secret');
	});

	it('outputs the signing secret of a new endpoint when asked to', async () => {
		const { items } = await sandbox.runOperation('webhookEndpoint', 'create', {
			url: ENDPOINT_URL,
			events: ['*'],
			outputSecret: true,
		});

		const [stored] = await sandbox.control.endpoints();
		expect(items[0].json.secret).toBe(stored.secret);
		expect(items[0].json.secret).toMatch(/^whsec_/);
	});

	it('subscribes to all events with the single-element list ["*"]', async () => {
		await sandbox.runOperation('webhookEndpoint', 'create', {
			url: ENDPOINT_URL,
			events: ['member.created', '*'],
		});

		const [request] = await sandbox.requests();
		expect(request.body).toMatchObject({ events: ['*'] });
	});

	it('gets and lists endpoints', async () => {
		const first = await createEndpoint({ description: 'first' });
		const second = await createEndpoint({ description: 'second' });
		await sandbox.clearRequests();

		const got = await sandbox.runOperation('webhookEndpoint', 'get', {
			endpointId: byId(first.id as string),
		});
		const listed = await sandbox.runOperation('webhookEndpoint', 'getAll', {
			returnAll: false,
			limit: 1,
		});

		expect(got.items[0].json).toMatchObject({ id: first.id, description: 'first' });
		expect(got.items[0].json).not.toHaveProperty('secret');
		expect(listed.items.map((item) => item.json.id)).toEqual([second.id]);
		const requests = await sandbox.requests();
		expect(requests[1]).toMatchObject({ path: '/api/v1/webhook-endpoints', query: { limit: '1' } });
	});

	it('updates events and enabled state, and clears the description', async () => {
		const endpoint = await createEndpoint({ description: 'to be cleared' });
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookEndpoint', 'update', {
			endpointId: byId(endpoint.id as string),
			updateFields: { enabled: false, events: ['customer.created'] },
			clearFields: ['description'],
		});

		const [request] = await sandbox.requests();
		expect(request.body).toEqual({
			enabled: false,
			events: ['customer.created'],
			description: null,
		});
		expect(items[0].json).toMatchObject({
			enabled: false,
			events: ['customer.created'],
			description: null,
		});
	});

	it('deletes an endpoint and outputs {deleted: true, id}', async () => {
		const endpoint = await createEndpoint();
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookEndpoint', 'delete', {
			endpointId: byId(endpoint.id as string),
		});

		expect(items.map((item) => item.json)).toEqual([{ deleted: true, id: endpoint.id }]);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(await sandbox.control.endpoints()).toEqual([]);
	});

	it('rolls the secret, sending no body, and outputs the new secret', async () => {
		const endpoint = await createEndpoint();
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookEndpoint', 'rollSecret', {
			endpointId: byId(endpoint.id as string),
		});

		const [stored] = await sandbox.control.endpoints();
		expect(items.map((item) => item.json)).toEqual([{ id: endpoint.id, secret: stored.secret }]);
		expect(stored.secret).not.toBe(endpoint.secret);
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/api/v1/webhook-endpoints/${endpoint.id as string}/roll-secret`,
			body: null,
		});
	});

	it('sends a test event of the type chosen', async () => {
		const endpoint = await createEndpoint({ events: ['member.created', 'member.verified'] });
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookEndpoint', 'sendTest', {
			endpointId: byId(endpoint.id as string),
			options: { event_type: 'member.verified' },
		});

		const [request] = await sandbox.requests();
		expect(request.body).toEqual({ event_type: 'member.verified' });
		expect(items[0].json).toEqual({
			delivery_id: expect.any(String),
			ok: false,
			response_status: expect.anything(),
			duration_ms: expect.any(Number),
		});
		const deliveries = await sandbox.control.settleDeliveries();
		expect(deliveries.find((delivery) => delivery.id === items[0].json.delivery_id)).toMatchObject({
			event_type: 'member.verified',
		});
	});

	describe('refuses bad input before any request', () => {
		it('an http:// URL', async () => {
			const { error } = await sandbox.runOperation('webhookEndpoint', 'create', {
				url: 'http://example.com/hook',
				events: ['*'],
			});
			expect(error?.message).toBe(
				'The "URL" field must be an https:// URL, but is "http://example.com/hook" (item 0)',
			);
		});

		it('an http:// URL in an update', async () => {
			const { error } = await sandbox.runOperation('webhookEndpoint', 'update', {
				endpointId: byId('0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192'),
				updateFields: { url: 'ftp://example.com' },
			});
			expect(error?.message).toBe(
				'The "URL" field must be an https:// URL, but is "ftp://example.com" (item 0)',
			);
		});

		it('an empty event list', async () => {
			const { error } = await sandbox.runOperation('webhookEndpoint', 'create', {
				url: ENDPOINT_URL,
				events: '={{ [] }}',
			});
			expect(error?.message).toBe(
				'The "Events" field must name at least one event (or All Events) (item 0)',
			);
		});

		afterEach(async () => {
			expect(await sandbox.requests()).toEqual([]);
		});
	});
});
