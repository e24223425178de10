/**
 * The trigger's own schedule (recovery/endpointWatch.ts): n8n runs `trigger()` when it publishes
 * the workflow, and the cron it registers reads the endpoint. An endpoint the API disabled while
 * n8n was unreachable is enabled again at the next tick and its dead events run once, without
 * anyone touching the workflow. Ticks are fired as n8n-core's scheduler fires them
 * (`job.fireOnTick()`), not waited for.
 */
import { ExecuteContext, TriggerContext } from 'n8n-core';
import type { INodeParameters } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { endpointCheckCron } from '../../nodes/WorkforceManagementTrigger/recovery/endpointWatch';
import { useLogRecorder } from '../support/engine/harness';
import { OUTAGE_WEBHOOKS, outage } from '../support/engine/outage';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: OUTAGE_WEBHOOKS,
});

const logged = useLogRecorder();

const NAMES = ['Friday Ltd', 'Saturday Ltd', 'Sunday Ltd'];

const published: LiveTrigger[] = [];
afterEach(() => {
	for (const trigger of published.splice(0)) trigger.stopSchedule();
});

/** Published as n8n publishes it: the webhook methods, then `trigger()`, which starts the schedule. */
async function publishedTrigger(options: INodeParameters = {}): Promise<LiveTrigger> {
	const trigger = await receiver().activeTrigger({
		parameters: { events: ['member.created'], options },
		credentials: fixture.credentials(),
		workflowName: 'Payroll sync',
	});
	await trigger.startSchedule();
	published.push(trigger);
	return trigger;
}

function businessNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map(([item]) =>
		String((item.json.data as { business_name: string }).business_name),
	);
}

describe('the schedule a published trigger keeps', () => {
	it('enables an endpoint the API disabled while n8n ran unreachable, runs each dead event once and a new one once, and says so once', async () => {
		const trigger = await publishedTrigger();
		const endpointId = await outage(fixture, trigger, NAMES, { reachableAfter: true });

		await trigger.tickSchedule();
		await fixture.control.settleDeliveries();

		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.enabled).toBe(true);
		expect(runsPerEvent([trigger])).toEqual([1, 1, 1]);
		await fixture.createMemberAndSettle('After the outage');
		expect(businessNames(trigger).sort()).toEqual([...NAMES, 'After the outage'].sort());
		const warnings = logged.filter((line) => line.level === 'warn');
		expect(warnings.map((line) => line.message)).toEqual([
			`Workforce Management Trigger "${trigger.node.name}" in workflow "Payroll sync" (${trigger.workflow.id}): webhook endpoint ${endpointId} was found disabled (Disabled automatically after 6 consecutive failed deliveries): enabled again, 3 missed events redelivered.`,
		]);

		await trigger.tickSchedule();
		expect(runsPerEvent([trigger])).toEqual([1, 1, 1, 1]);
		expect(logged.filter((line) => line.level === 'warn')).toHaveLength(1);
	});

	it('reads the endpoint once per tick, and changes nothing while it is enabled', async () => {
		const trigger = await publishedTrigger();
		const endpointId = String(trigger.nodeStaticData().endpointId);
		await fixture.clearRequests();

		await trigger.tickSchedule();

		const requests = await fixture.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /api/v1/webhook-endpoints/${endpointId}`,
		]);
	});

	it('never redelivers beside the recovery of an activation running at the same moment', async () => {
		const trigger = await publishedTrigger();
		await outage(fixture, trigger, NAMES, { reachableAfter: true });
		await fixture.clearRequests();
		const restarted = receiver().restart(trigger, trigger.staticData);

		await Promise.all([restarted.activate('init'), trigger.tickSchedule()]);
		await fixture.control.settleDeliveries();

		expect(await fixture.requestCount('POST', '/redeliver')).toBe(3);
		expect(runsPerEvent([trigger, restarted])).toEqual([1, 1, 1]);
	});

	it('is one cron job per trigger node, however often n8n runs trigger(); n8n stops it on unpublishing', async () => {
		const trigger = await publishedTrigger({ endpointCheckMinutes: 2 });
		await trigger.startSchedule('update');

		const jobs = trigger.scheduledJobs();
		expect(jobs.map((job) => job.summary)).toEqual([
			endpointCheckCron(2, trigger.workflow.id, trigger.node.id),
		]);
		expect(jobs[0].summary).toMatch(/^\d{1,2} \*\/2 \* \* \* \*$/);
		trigger.stopSchedule();
		expect(trigger.scheduledJobs()).toEqual([]);
	});

	it('spreads the checks of different triggers over the minute', () => {
		const seconds = new Set(
			Array.from(
				{ length: 20 },
				(_, index) => endpointCheckCron(5, `wf${index}`, 'node').split(' ')[0],
			),
		);
		expect(seconds.size).toBeGreaterThan(10);
		expect(endpointCheckCron(0, 'wf', 'node')).toMatch(/ \*\/5 /);
	});
});

describe('an execution a test delivery starts (mode manual)', () => {
	it('outputs the delivery’s item, as without a schedule: n8n runs execute() before trigger()', async () => {
		const production = await publishedTrigger();
		const listener = receiver().testListener(production);
		await listener.activate();

		await fixture.createMemberAndSettle('Listened Ltd');

		expect(listener.executions).toHaveLength(1);
		expect(listener.executions[0]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					type: 'member.created',
					received_in: 'editor',
					data: expect.objectContaining({ business_name: 'Listened Ltd' }),
				}),
			}),
		]);
		await listener.deactivate();
	});

	// n8n's engine skips a node without input items; this is execute() called without a delivery
	it.each([
		[false, 'throws'],
		[true, 'outputs an error item'],
	])(
		'says what to do when execute() runs without a delivery (Continue On Fail %s: %s)',
		async (continueOnFail) => {
			const production = await publishedTrigger();
			const node = { ...production.node, continueOnFail };
			const context = new ExecuteContext(
				production.workflow,
				node,
				production.additionalData,
				'manual',
				createRunExecutionData(),
				0,
				[],
				{ main: [[]] },
				{ node, data: { main: [[]] }, source: null },
				[],
			);
			const message =
				'This trigger has no event to output: it runs when Workforce Management delivers one';

			const run = production.nodeType.execute!.call(context);

			if (continueOnFail) expect(await run).toEqual([[{ json: { error: message } }]]);
			else await expect(run).rejects.toMatchObject({ name: 'NodeOperationError', message });
		},
	);

	it('schedules nothing, should n8n call trigger() in manual mode', async () => {
		const production = await publishedTrigger();
		production.stopSchedule();
		let emitted: unknown;
		const context = new TriggerContext(
			production.workflow,
			production.node,
			production.additionalData,
			'manual',
			'manual',
			(data) => {
				emitted = data;
			},
		);

		const response = await production.nodeType.trigger!.call(context);
		await response?.manualTriggerFunction?.();

		expect(production.scheduledJobs()).toEqual([]);
		expect(emitted).toEqual([[]]);
	});
});
