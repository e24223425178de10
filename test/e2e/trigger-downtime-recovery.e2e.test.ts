/**
 * Events the API gave up on while n8n was down ("Recover Missed Events"): n8n stopped, 3 events
 * emitted, every retry failed until the deliveries are `dead` (and the endpoint auto-disabled).
 * When n8n starts, the trigger redelivers each once. n8n 2.41 runs no webhook method when it starts,
 * so there the trigger recovers them at the next activation: deactivated and activated again.
 */
import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { N8N_LINE } from '../support/n8n/launch';
import { withTriggerEvents } from '../support/workflows';
import { eventually } from '../support/poll';
import { onceEach, runsPerEvent } from './event-runs';
import { useE2eWorld } from './use-world';

// short retries, so the API gives up within n8n's 300 s signature tolerance of the sandbox clock;
// 3 events failing twice disable the endpoint, and their next retries die
const RETRY_DELAYS_SECONDS = [60, 60, 60];
const world = useE2eWorld({
	sandboxWebhooks: { retryDelaysSeconds: RETRY_DELAYS_SECONDS, autoDisableAfter: 6 },
});
const TRIGGER = 'On timesheet approved';

test(`3 events dead while n8n was down run exactly once each ${N8N_LINE.webhookMethodsAtStart ? 'after it starts' : 'at the next activation after it starts'}`, async () => {
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
	if (!N8N_LINE.webhookMethodsAtStart) {
		const endpointCalls = (await world().control.requests()).filter((call) =>
			call.path.includes('/webhook-'),
		);
		expect(endpointCalls).toEqual([]);
		// republished with a changed trigger: the line's way to run the trigger's checkExists()
		const saved = await world().client.getWorkflow(workflowId);
		await world().client.updateWorkflow(
			workflowId,
			withTriggerEvents(saved, TRIGGER, ['timesheet.approved', 'timesheet.disputed']),
		);
	}
	await world()
		.client.waitForExecutions(workflowId, 3)
		.catch(async (error: Error) => {
			const calls = (await world().control.requests()).map((call) => `${call.method} ${call.path}`);
			throw new Error(
				`${error.message}; the trigger's API calls since n8n started: ${calls.join(', ') || 'none'}`,
			);
		});
	console.log(
		`downtime: 3 dead events ran ${((Date.now() - startedAt) / 1000).toFixed(1)} s after n8n was started`,
	);
	expect(world().n8n.log).toContain(
		`recovering events the API gave up delivering to endpoint ${endpoint.id} (retries exhausted or endpoint disabled): 3 missed events redelivered, 0 skipped as already run`,
	);
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
}, 300_000); // an n8n restart takes 20-60 s on a loaded machine
