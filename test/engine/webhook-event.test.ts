import type { IDataObject } from 'n8n-workflow';

import { runLoadOptions } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

describe('Webhook Event', () => {
	it('lists the event catalog, one item per event type', async () => {
		const catalog = await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-events');
		await sandbox.clearRequests();

		const { items } = await sandbox.runOperation('webhookEvent', 'getAll');

		expect(items.map((item) => item.json)).toEqual(catalog.data);
		expect(items.map((item) => item.json.type)).toContain('member.created');
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		const requests = await sandbox.requests();
		expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v1/webhook-events',
		]);
	});

	it('offers the catalog, after "All Events", as the options of an endpoint\'s events', async () => {
		const catalog = await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-events');

		const options = await runLoadOptions('getEndpointEventTypes', {
			parameters: { resource: 'webhookEndpoint', operation: 'create' },
			credentials: sandbox.credentials(),
		});

		expect(options[0]).toMatchObject({ name: 'All Events', value: '*' });
		expect(options.slice(1).map((option) => option.value)).toEqual(
			catalog.data.map((entry) => entry.type),
		);
		expect(options.slice(1).map((option) => option.description)).toEqual(
			catalog.data.map((entry) => `${entry.type as string}: ${entry.description as string}`),
		);
		expect(options).toContainEqual(
			expect.objectContaining({ name: 'Site Created', value: 'customer_location.created' }),
		);
	});
});
