/**
 * The trigger in a real n8n under what people do with a published workflow: listening for a test
 * event beside production, rotating the API key, and a copy of the workflow that carries the
 * original's static data (issue #19, cases 1 to 3).
 */
import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { CREDENTIAL_TYPE } from '../../harness/constants';
import { endpointsRemoved } from '../support/endpoint-removal';
import { nodeOutput, type Execution } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import type { WebhookEndpoint } from '../../harness/sandbox-control';
import { retriesBroughtIn } from './api-retries';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();
const TRIGGER = 'On timesheet approved';

async function endpointsWhere(
	what: string,
	check: (endpoints: WebhookEndpoint[]) => boolean,
): Promise<WebhookEndpoint[]> {
	// a removal waits out the trigger's grace period for a republish (10 s)
	return await eventually(what, async () => await world().control.endpoints(), check, {
		timeoutMs: 30_000,
	});
}

function byMode(executions: Execution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) counts[execution.mode] = (counts[execution.mode] ?? 0) + 1;
	return counts;
}

async function publishedTimesheetWorkflow(
	staticData?: Record<string, unknown>,
	triggerOptions: Record<string, unknown> = {},
): Promise<{ id: string; webhookId: string }> {
	const workflow = timesheetApprovedWorkflow(world().credential);
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
	trigger.parameters = { ...(trigger.parameters as object), options: triggerOptions };
	const { id } = await world().client.createWorkflow({ ...workflow, staticData });
	await world().client.activateWorkflow(id);
	return { id, webhookId: workflow.triggerWebhookId };
}

beforeEach(async () => {
	await world().control.reset();
	// the sandbox's keys are back to the configured ones: so is the credential
	await world().client.updateCredential(world().credential.id, {
		name: world().credential.name,
		type: CREDENTIAL_TYPE,
		data: { apiKey: world().apiKey, baseUrl: world().sandbox.baseUrl },
	});
});

test('a published workflow and a test listener: every event runs once in each, and a redelivery to production runs neither', async () => {
	const { id, webhookId } = await publishedTimesheetWorkflow();
	const productionUrl = world().n8n.webhookUrl(webhookId, 'webhook');
	await endpointsWhere('registered', (endpoints) => endpoints.length === 1);

	for (let event = 1; event <= 3; event++) {
		// n8n removes the test registration after one run: the user clicks "Listen" again each time
		await world().client.listenForTestEvent(id, TRIGGER);
		await endpointsWhere('listening', (endpoints) => endpoints.length === 2);
		const emitted = await world().control.emitEvent('timesheet.approved');
		await world().control.settleDeliveries();
		const executions = await world().client.waitForExecutions(id, event * 2);
		expect(byMode(executions)).toEqual({ webhook: event, manual: event });
		// the trigger's output in the editor's run is the delivery, as in production's
		for (const mode of ['manual', 'webhook']) {
			const runs = executions.filter(
				(execution) =>
					execution.mode === mode && nodeOutput(execution, TRIGGER).id === emitted.event.id,
			);
			expect(runs.map((execution) => nodeOutput(execution, TRIGGER).received_in)).toEqual([
				mode === 'manual' ? 'editor' : 'published_workflow',
			]);
		}
		await endpointsWhere('listener removed', (endpoints) => endpoints.length === 1);
	}

	const deliveries = await world().control.settleDeliveries();
	const [production] = await world().control.endpoints();
	expect(production.url).toBe(productionUrl);
	const first = deliveries.find((delivery) => delivery.endpoint_id === production.id)!;
	await world().control.api(world().apiKey, 'POST', `/webhook-deliveries/${first.id}/redeliver`);
	await world().control.settleDeliveries();
	// n8n stores an execution before it answers; one more event shows whatever the redelivery ran
	await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	await world().client.waitForExecutions(id, 7);
	expect(byMode(await world().client.listExecutions(id))).toEqual({ webhook: 4, manual: 3 });
	await world().client.deactivateWorkflow(id);
}, 630_000); // longer than its named waits: three rounds of listen, deliver and wait

test('a rotated API key: the credential updated, deliveries resume and no event is lost, across a restart', async () => {
	// the sandbox clock moves ahead to make retries due: a wide tolerance keeps their signatures valid
	const { id } = await publishedTimesheetWorkflow(undefined, { signatureToleranceSeconds: 7200 });
	await endpointsWhere('registered', (endpoints) => endpoints.length === 1);
	await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	await world().client.waitForExecutions(id, 1);

	const rotatedKey = await world().control.rotateKey(world().apiKey);
	await world().client.updateCredential(world().credential.id, {
		name: world().credential.name,
		type: CREDENTIAL_TYPE,
		data: { apiKey: rotatedKey, baseUrl: world().sandbox.baseUrl },
	});
	await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	await world().client.waitForExecutions(id, 2);

	// n8n down while an event is sent: the API retries once n8n is back with the new key
	await world().stopN8n();
	const { event } = await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	await world().startN8n();
	// on 2.8.4 n8n re-keys when it activates the workflow at start-up; 2.41 keeps the registration,
	// and the first delivery that finds the secret unusable rolls it (refused, 401)
	const retried = await retriesBroughtIn(world(), [event.id], { apiKey: rotatedKey });
	expect(retried.undelivered).toEqual([]);
	expect(
		retried.deliveries
			.filter((delivery) => delivery.status === 'delivered')
			.map((delivery) => delivery.last_response_status),
	).toEqual([200]);
	const executions = await world().client.waitForExecutions(id, 3);
	expect(executions.map((execution) => execution.status)).toEqual(Array(3).fill('success'));
	await world().client.deactivateWorkflow(id);
}, 570_000); // longer than its named waits, an n8n restart (up to 180 s) among them

test("a copy carrying the original's static data leaves the original's endpoint alone", async () => {
	const original = await publishedTimesheetWorkflow();
	const [originalEndpoint] = await endpointsWhere('registered', (list) => list.length === 1);
	const { staticData } = await world().client.getWorkflow(original.id);

	const copy = await publishedTimesheetWorkflow(staticData as Record<string, unknown>);
	const both = await endpointsWhere('the copy registered', (list) => list.length === 2);
	expect(both.find((endpoint) => endpoint.id === originalEndpoint.id)).toMatchObject({
		url: originalEndpoint.url,
		secret: originalEndpoint.secret,
		enabled: true,
	});

	const copyEndpoint = both.find((endpoint) => endpoint.id !== originalEndpoint.id)!;
	const since = Date.now();
	await world().client.deactivateWorkflow(copy.id);
	await endpointsRemoved(world().control, [copyEndpoint.id], {
		since,
		what: 'the copy deactivated',
	});
	const left = await world().control.endpoints();
	expect(left.map((endpoint) => endpoint.id)).toEqual([originalEndpoint.id]);
	await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	expect(await world().client.waitForExecutions(original.id, 1)).toHaveLength(1);
	await world().client.deactivateWorkflow(original.id);
});
