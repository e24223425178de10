import type { IDataObject } from 'n8n-workflow';

import { endpointDescription } from '../../nodes/shared/webhooks';
import { runListSearch } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';

const sandbox = useSandbox();

async function search(method: string, filter?: string, paginationToken?: string) {
	return await runListSearch(method, {
		parameters: { resource: 'member', operation: 'get' },
		credentials: sandbox.credentials(),
		filter,
		paginationToken,
	});
}

describe('"From list" searches', () => {
	it('pages through members with the API cursor, 100 at a time', async () => {
		await sandbox.control.seedMembers(150);
		await sandbox.clearRequests();

		const first = await search('searchMembers');
		const second = await search('searchMembers', undefined, first.paginationToken as string);

		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toEqual(expect.any(String));
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		const ids = new Set([...first.results, ...second.results].map((result) => result.value));
		expect(ids.size).toBe(150);
		const requests = await sandbox.requests();
		expect(requests.map((request) => request.query.cursor)).toEqual([
			undefined,
			first.paginationToken,
		]);
	});

	it('narrows members by name, showing the display name', async () => {
		const ada = await sandbox.api('POST', '/members', {
			business_name: 'Ada Care',
			display_name: 'Ada',
		});
		await sandbox.api('POST', '/members', { business_name: 'Bright Nursing' });

		const { results } = await search('searchMembers', 'ada');

		expect(results).toEqual([{ name: 'Ada Care (Ada)', value: ada.id }]);
	});

	it('lists customers, sites, endpoints and deliveries', async () => {
		const customer = await sandbox.api('POST', '/customers', { name: 'Northwind' });
		const site = await sandbox.api('POST', '/sites', { customer_id: customer.id, name: 'Harbour' });
		const endpoint = await sandbox.api('POST', '/webhook-endpoints', {
			url: 'https://127.0.0.1:9/hook',
			events: ['*'],
			description: 'CRM',
		});
		await sandbox.control.emitEvent('customer.updated');
		await sandbox.control.settleDeliveries();

		const customers = await search('searchCustomers');
		const sites = await search('searchSites');
		const endpoints = await search('searchWebhookEndpoints');
		const deliveries = await search('searchWebhookDeliveries', 'customer.updated');

		expect(customers.results).toEqual([{ name: 'Northwind', value: customer.id }]);
		expect(sites.results).toEqual([{ name: 'Harbour', value: site.id }]);
		expect(endpoints.results).toEqual([
			{
				name: 'CRM · all events · https://127.0.0.1:9/hook',
				value: endpoint.id,
				url: 'https://127.0.0.1:9/hook',
			},
		]);
		expect(deliveries.results).toHaveLength(1);
		expect(deliveries.results[0].name).toMatch(/^customer\.updated · \w+ · /);
		const [delivery] = (await sandbox.api<{ data: IDataObject[] }>('GET', '/webhook-deliveries'))
			.data;
		expect(deliveries.results[0].value).toBe(delivery.id);
	});

	it('shows a trigger’s endpoint by its workflow name, events and URL, without the workflow id', async () => {
		const url = 'https://n8n.example.com/webhook/6f1c1e0e/webhook';
		const ours = await sandbox.api('POST', '/webhook-endpoints', {
			url,
			events: ['timesheet.approved'],
			description: endpointDescription('UhQysxdh1I3z9tfP', 'Payroll sync'),
		});
		const bare = await sandbox.api('POST', '/webhook-endpoints', {
			url: 'https://hooks.example.com/a',
			events: ['member.created', 'member.updated', 'member.verified', 'member.deleted'],
		});
		await sandbox.api('PATCH', `/webhook-endpoints/${bare.id}`, { enabled: false });

		const { results } = await search('searchWebhookEndpoints');
		const payroll = await search('searchWebhookEndpoints', 'payroll');

		expect(results).toEqual([
			{
				name: 'https://hooks.example.com/a (disabled) · member.created, member.updated, member.verified +1 more',
				value: bare.id,
				url: 'https://hooks.example.com/a',
			},
			{ name: `Payroll sync · timesheet.approved · ${url}`, value: ours.id, url },
		]);
		expect(payroll.results.map((result) => result.value)).toEqual([ours.id]);
	});
});
