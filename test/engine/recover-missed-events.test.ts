/**
 * Webhook Endpoint → Recover Missed Events, as a Schedule workflow runs it on n8n lines that run no
 * trigger method when they start (2.36+): after an outage that disabled the trigger's endpoint and
 * killed its deliveries, n8n starts, nobody touches the trigger's workflow, and the operation
 * re-enables the endpoint and redelivers each dead event once.
 */
import type { IDataObject } from 'n8n-workflow';

import { ACTION_NODE_TYPE } from '../../harness/constants';
import { runNode, useLogRecorder } from '../support/engine/harness';
import { OUTAGE_WEBHOOKS, outage } from '../support/engine/outage';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: OUTAGE_WEBHOOKS,
});

const logged = useLogRecorder();

const NAMES = ['Friday Ltd', 'Saturday Ltd', 'Sunday Ltd'];

async function activeTrigger(): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: ['member.created'], options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Payroll sync',
	});
}

/** n8n 2.41 starts: the trigger serves webhooks with its saved static data; no method of it runs. */
function startedWithoutActivation(trigger: LiveTrigger): LiveTrigger {
	return receiver().restart(trigger, trigger.staticData);
}

/** One run of the operation, as this n8n (its webhook URL) runs it, then the API's deliveries. */
async function recoverMissedEvents(parameters: IDataObject = {}): Promise<IDataObject[]> {
	const { items, error } = await runNode({
		type: ACTION_NODE_TYPE,
		parameters: { resource: 'webhookEndpoint', operation: 'recoverMissedEvents', ...parameters },
		credentials: fixture.credentials(),
		webhookBaseUrl: receiver().origin,
	});
	expect(error).toBeUndefined();
	await fixture.control.settleDeliveries();
	return items.map((item) => item.json);
}

function businessNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map(([item]) =>
		String((item.json.data as { business_name: string }).business_name),
	);
}

describe('Webhook Endpoint → Recover Missed Events', () => {
	it('re-enables the disabled trigger endpoint and runs each dead event once; a second run redelivers nothing', async () => {
		const trigger = await activeTrigger();
		await outage(fixture, trigger, NAMES);
		const [endpoint] = await fixture.control.endpoints();
		const started = startedWithoutActivation(trigger);

		const first = await recoverMissedEvents();

		expect(first).toEqual([
			{
				endpoint_id: endpoint.id,
				description: 'Payroll sync',
				url: started.webhookUrl(),
				re_enabled: true,
				redelivered: 3,
				older_than_72_hours: 0,
				over_500_per_run: 0,
				not_read: 0,
				busy: false,
			},
		]);
		expect((await fixture.control.endpoints())[0].enabled).toBe(true);
		expect(businessNames(started).sort()).toEqual([...NAMES].sort());
		expect(logged.filter((entry) => entry.level === 'warn')).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(
					new RegExp(
						`^Recover Missed Events: webhook endpoint ${endpoint.id} was found disabled \\(.+\\): enabled again, 3 missed events redelivered\\.$`,
					),
				),
			}),
		]);

		const second = await recoverMissedEvents();
		expect(second).toEqual([expect.objectContaining({ re_enabled: false, redelivered: 0 })]);
		const redeliveries = (await fixture.requests()).filter((request) =>
			request.path.endsWith('/redeliver'),
		);
		expect(redeliveries).toHaveLength(3);

		await fixture.createMemberAndSettle('After the outage');
		expect(businessNames(started).sort()).toEqual([...NAMES, 'After the outage'].sort());
	});

	it('leaves alone endpoints that are not this n8n’s triggers’ production endpoints', async () => {
		const trigger = await activeTrigger();
		const listener = receiver().testListener(trigger);
		await listener.activate();
		const foreign = [
			{ url: 'https://crm.example.com/hooks/workforce', description: 'CRM sync' },
			{
				url: 'https://staging.example.com/webhook/3c2d/webhook',
				description: `Payroll sync (n8n workflow ${trigger.workflow.id})`,
			},
			// another n8n served under this one's origin: a prefix of the URL is no proof
			{
				url: `${receiver().origin}/staging/webhook/6f1c9a52-0d4e-4c1b-9a0e-2b7d5e8f3a11/webhook`,
				description: 'Staging payroll sync (n8n workflow stg1)',
			},
		];
		for (const body of foreign) {
			const created = await fixture.api<{ id: string }>('POST', '/webhook-endpoints', {
				...body,
				events: ['member.created'],
			});
			await fixture.api('PATCH', `/webhook-endpoints/${created.id}`, { enabled: false });
		}

		const results = await recoverMissedEvents();

		expect(results.map((result) => result.url)).toEqual([trigger.webhookUrl()]);
		const disabled = (await fixture.control.endpoints()).filter((endpoint) => !endpoint.enabled);
		expect(disabled.map((endpoint) => endpoint.url).sort()).toEqual(
			foreign.map((body) => body.url).sort(),
		);
	});

	it('runs no second recovery beside the trigger’s own (2.8.4 starting while the companion runs): each dead event redelivered once', async () => {
		const trigger = await activeTrigger();
		await outage(fixture, trigger, NAMES);
		await fixture.clearRequests();
		const restarted = receiver().restart(trigger, trigger.staticData);

		const [results] = await Promise.all([recoverMissedEvents(), restarted.activate('init')]);
		await fixture.control.settleDeliveries();

		const redeliveries = (await fixture.requests()).filter((request) =>
			request.path.endsWith('/redeliver'),
		);
		expect(redeliveries.map((request) => request.path).sort()).toEqual(
			[...new Set(redeliveries.map((request) => request.path))].sort(),
		);
		expect(redeliveries).toHaveLength(3);
		expect(businessNames(restarted).sort()).toEqual([...NAMES].sort());
		expect(results).toHaveLength(1);
		expect([0, 3]).toContain(results[0].redelivered);
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.description).toBe(`Payroll sync (n8n workflow ${trigger.workflow.id})`);
	});

	it('with an API that pages no further, says in the log and the output what it could not read', async () => {
		const trigger = await activeTrigger();
		await outage(fixture, trigger, NAMES);
		const started = startedWithoutActivation(trigger);
		await fixture.injectFault({
			kind: 'broken_page',
			variant: 'no_cursor',
			count: 10_000,
			path: '/webhook-deliveries',
		});

		const [result] = await recoverMissedEvents();

		expect(Number(result.not_read)).toBeGreaterThan(0);
		expect(Number(result.redelivered) + Number(result.not_read)).toBe(NAMES.length);
		expect(runsPerEvent([started]).every((count) => count === 1)).toBe(true);
		expect(logged.map((entry) => entry.message)).toContainEqual(
			expect.stringMatching(
				/^Recover Missed Events: the deliveries of endpoint .* \(the API said more exist but gave no cursor to read them\): \d+ dead events? seen older than that, and possibly more, were not redelivered\.$/,
			),
		);
	});

	it('recovers one chosen endpoint', async () => {
		const trigger = await activeTrigger();
		await outage(fixture, trigger, NAMES);
		const [endpoint] = await fixture.control.endpoints();
		const started = startedWithoutActivation(trigger);

		const results = await recoverMissedEvents({
			recoverFor: 'endpoint',
			endpointId: { __rl: true, mode: 'id', value: endpoint.id },
		});

		expect(results).toEqual([
			expect.objectContaining({ endpoint_id: endpoint.id, redelivered: 3 }),
		]);
		expect(businessNames(started).sort()).toEqual([...NAMES].sort());
	});
});
