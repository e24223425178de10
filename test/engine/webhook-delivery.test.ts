import type { IDataObject } from 'n8n-workflow';

import { byId } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

// Enough failures in a row to list more than a page, without the endpoint being disabled.
const sandbox = useSandbox({ webhooks: { autoDisableAfter: 1000 } });

/** An endpoint nobody listens at, and `count` events of each type sent to it (all failing). */
async function endpointWithFailedDeliveries(types: string[], count = 1): Promise<IDataObject> {
	const endpoint = await sandbox.api('POST', '/webhook-endpoints', {
		url: 'https://127.0.0.1:9/hooks',
		events: ['*'],
	});
	for (let index = 0; index < count; index++) {
		for (const type of types) await sandbox.control.emitEvent(type);
	}
	await sandbox.control.settleDeliveries();
	await sandbox.clearRequests();
	return endpoint;
}

describe('Webhook Delivery', () => {
	it('lists deliveries filtered by endpoint, status and event type', async () => {
		const endpoint = await endpointWithFailedDeliveries(['member.created', 'customer.created']);
		const other = await sandbox.api('POST', '/webhook-endpoints', {
			url: 'https://127.0.0.1:9/other',
			events: ['member.created'],
		});
		await sandbox.control.emitEvent('member.created');
		await sandbox.control.settleDeliveries();
		const { status } = (await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-deliveries'))
			.data[0];
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookDelivery', 'getAll', {
			returnAll: true,
			filters: {
				endpoint_id: byId(endpoint.id as string),
				status,
				event_type: 'member.created',
			},
		});

		expect(items.length).toBeGreaterThan(0);
		expect(
			items.every(
				(item) =>
					item.json.endpoint_id === endpoint.id &&
					item.json.event_type === 'member.created' &&
					item.json.status === status,
			),
		).toBe(true);
		expect(items.some((item) => item.json.endpoint_id === other.id)).toBe(false);
		const [request] = await sandbox.requests();
		expect(request.query).toMatchObject({
			endpoint_id: endpoint.id,
			status,
			event_type: 'member.created',
		});
	});

	it('ignores a filter left empty', async () => {
		await endpointWithFailedDeliveries(['member.created']);

		const { items, error } = await sandbox.runOperation('webhookDelivery', 'getAll', {
			returnAll: true,
			filters: { event_type: '' },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [request] = await sandbox.requests();
		expect(request.query).toEqual({ limit: '100' });
	});

	it('follows next_cursor through more than one page', async () => {
		await endpointWithFailedDeliveries(['member.created'], 120);
		const total = (await sandbox.control.settleDeliveries()).length;
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookDelivery', 'getAll', { returnAll: true });

		expect(total).toBeGreaterThanOrEqual(120);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(total);
		const requests = await sandbox.requests();
		expect(requests).toHaveLength(Math.ceil(total / 100));
		expect(requests[1].query.cursor).toEqual(expect.any(String));
	});

	it('redelivers a delivery, sending no body', async () => {
		await endpointWithFailedDeliveries(['member.created']);
		const [delivery] = (await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-deliveries'))
			.data;
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookDelivery', 'redeliver', {
			deliveryId: byId(delivery.id as string),
		});

		expect(items[0].json).toEqual({ delivery_id: expect.any(String) });
		expect(items[0].json.delivery_id).not.toBe(delivery.id);
		const [request] = await sandbox.requests();
		expect(request).toMatchObject({
			method: 'POST',
			path: `/api/v1/webhook-deliveries/${delivery.id as string}/redeliver`,
			body: null,
		});
		const deliveries = await sandbox.control.settleDeliveries();
		expect(deliveries.find((record) => record.id === items[0].json.delivery_id)).toMatchObject({
			event_id: delivery.event_id,
			redelivery_of: delivery.id,
		});
	});

	it("refuses to redeliver to a disabled endpoint with the API's reason", async () => {
		const endpoint = await endpointWithFailedDeliveries(['member.created']);
		const [delivery] = (await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-deliveries'))
			.data;
		await sandbox.api('PATCH', `/webhook-endpoints/${endpoint.id as string}`, { enabled: false });

		const { error } = await sandbox.runOperation('webhookDelivery', 'redeliver', {
			deliveryId: byId(delivery.id as string),
		});

		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '409' });
		expect(error?.message).toMatch(/^The API refused the request with status 409: .*disabled/);
	});
});
