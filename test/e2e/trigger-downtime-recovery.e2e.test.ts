/**
 * After an outage, the trigger heals alone, on every line, with nothing imported beside it: n8n
 * stopped, 3 events emitted, every retry failed until the deliveries are `dead` and the endpoint
 * auto-disabled. Then n8n starts and nobody touches the workflow. n8n 2.8.4 runs the trigger's
 * `checkExists()` at start; 2.41 re-publishes at start a workflow whose `trigger()` has not run
 * (the trigger's schedule), which runs `checkExists()` too. Either re-enables the endpoint and
 * redelivers each dead event once.
 */
import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { N8N_LINE } from '../../harness/n8n/launch';
import { eventually } from '../../harness/poll';
import { onceEach, runsPerEvent } from './event-runs';
import { useE2eWorld } from './use-world';

// short retries, so the API gives up within n8n's 300 s signature tolerance of the sandbox clock;
// 3 events failing twice disable the endpoint, and their next retries die
const RETRY_DELAYS_SECONDS = [60, 60, 60];
const world = useE2eWorld({
	sandboxWebhooks: { retryDelaysSeconds: RETRY_DELAYS_SECONDS, autoDisableAfter: 6 },
});
const TRIGGER = 'On timesheet approved';
/** From n8n's start: the start itself (10-60 s on a loaded machine) and the redeliveries. */
const RECOVERED_WITHIN_MS = 120_000;
/** The promise: the endpoint enabled again within 5 minutes of n8n being ready. */
const ENABLED_WITHIN_MS = 300_000;

test(`3 events dead while n8n was down run exactly once each after it starts, the workflow untouched, nothing imported beside it (n8n ${N8N_LINE.n8n})`, async () => {
	const workflow = timesheetApprovedWorkflow(world().credential);
	const { id: workflowId } = await world().client.createWorkflow(workflow);
	await world().client.activateWorkflow(workflowId);
	const [endpoint] = await eventually(
		'registered',
		async () => await world().control.endpoints(),
		(list) => list.length === 1,
	);

	await world().stopN8n();
	const missed: string[] = [];
	for (let count = 0; count < 3; count++) {
		missed.push((await world().control.emitEvent('timesheet.approved')).event.id);
	}
	await world().control.settleDeliveries();
	for (const seconds of RETRY_DELAYS_SECONDS) {
		await world().control.advanceClock(seconds);
		await world().control.settleDeliveries();
	}
	const statuses = (await world().control.settleDeliveries()).map((delivery) => delivery.status);
	expect(new Set(statuses)).toEqual(new Set(['dead']));
	expect((await world().control.endpoints())[0].enabled).toBe(false);

	await world().control.clearRequests();
	const startedAt = Date.now();
	await world().startN8n();
	const readyAt = Date.now();
	await eventually(
		'the endpoint enabled again',
		async () => await world().control.endpoints(),
		(list) => list.length === 1 && list[0].enabled,
		{ timeoutMs: ENABLED_WITHIN_MS, intervalMs: 500 },
	);
	const enabledAfter = (Date.now() - readyAt) / 1000;
	await world()
		.client.waitForExecutions(workflowId, 3, RECOVERED_WITHIN_MS)
		.catch(async (error: Error) => {
			const calls = (await world().control.requests()).map((call) => `${call.method} ${call.path}`);
			throw new Error(
				`${error.message}; the trigger's API calls since n8n started: ${calls.join(', ') || 'none'}`,
			);
		});
	console.log(
		`downtime (n8n ${N8N_LINE.n8n}): endpoint enabled ${enabledAfter.toFixed(1)} s after n8n was ready; the 3 dead events ran ${((Date.now() - startedAt) / 1000).toFixed(1)} s after it was started`,
	);
	await world().n8n.logged(
		`recovering events the API gave up delivering to endpoint ${endpoint.id} (retries exhausted or endpoint disabled): 3 missed events redelivered, 0 skipped as already run`,
	);
	const foundDisabled = world()
		.n8n.log.split('\n')
		.filter((line) => line.includes(`webhook endpoint ${endpoint.id} was found disabled`));
	expect(foundDisabled).toHaveLength(1);
	expect(foundDisabled[0]).toContain('enabled again, 3 missed events redelivered.');
	expect((await world().control.endpoints()).map(({ id, enabled }) => ({ id, enabled }))).toEqual([
		{ id: endpoint.id, enabled: true },
	]);

	// a genuine event afterwards: a second run of a missed one would have finished before it
	const { event } = await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	const executions = await world().client.waitForExecutions(workflowId, 4);
	const expected = [...missed, event.id];
	expect(runsPerEvent(executions, TRIGGER, expected)).toEqual(onceEach(expected));
	expect(executions).toHaveLength(4);
}, 810_000); // longer than its named waits: n8n's start (up to 180 s), enabled (300 s), recovered (120 s)…
