/**
 * The trigger in a real n8n under what people do with a published workflow: listening for a test
 * event beside production, rotating the API key, and a copy of the workflow that carries the
 * original's static data (issue #19, cases 1 to 3).
 */
import { timesheetApprovedWorkflow } from '../demo/workflows';
import { CREDENTIAL_TYPE } from '../support/constants';
import type { Execution } from '../support/n8n';
import type { WebhookEndpoint } from '../support/sandbox-control';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();
const TRIGGER = 'On timesheet approved';

/** Polls until `check` holds (n8n registers and removes webhooks asynchronously on newer lines). */
async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean) {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const value = await read();
		if (check(value)) return value;
		if (Date.now() > deadline) throw new Error(`Still not ${what}: ${JSON.stringify(value)}`);
		await new Promise((wake) => setTimeout(wake, 200));
	}
}

async function endpointsWhere(
	what: string,
	check: (endpoints: WebhookEndpoint[]) => boolean,
): Promise<WebhookEndpoint[]> {
	return await eventually(what, async () => await world().control.endpoints(), check);
}

function byMode(executions: Execution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) counts[execution.mode] = (counts[execution.mode] ?? 0) + 1;
	return counts;
}

async function publishedTimesheetWorkflow(
	staticData?: Record<string, unknown>,
): Promise<{ id: string; webhookId: string }> {
	const workflow = timesheetApprovedWorkflow(world().credential);
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
		await world().control.emitEvent('timesheet.approved');
		await world().control.settleDeliveries();
		const executions = await world().client.waitForExecutions(id, event * 2);
		expect(byMode(executions)).toEqual({ webhook: event, manual: event });
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
});

test('a rotated API key: the credential updated, deliveries resume and no event is lost, across a restart', async () => {
	const { id } = await publishedTimesheetWorkflow();
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
	const [beforeRestart] = await world().control.endpoints();
	await world().stopN8n();
	const { event } = await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	await world().startN8n();
	// starting, n8n activates the workflow: the secret no longer opens with the new key, so the
	// trigger rolls it (on 2.41 after n8n says it is ready)
	await endpointsWhere('re-keyed', (list) => list[0]?.secret !== beforeRestart.secret);
	// the first retry is due after 60 s; the sandbox clock stays within n8n's 300 s signature tolerance
	await world().control.advanceClock(90);
	const retried = (await world().control.settleDeliveries()).filter(
		(delivery) => delivery.event_id === event.id,
	);

	expect(retried.map((delivery) => [delivery.status, delivery.last_response_status])).toEqual([
		['delivered', 200],
	]);
	const executions = await world().client.waitForExecutions(id, 3);
	expect(executions.map((execution) => execution.status)).toEqual(Array(3).fill('success'));
	await world().client.deactivateWorkflow(id);
});

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

	await world().client.deactivateWorkflow(copy.id);
	const left = await endpointsWhere('the copy removed', (list) => list.length === 1);
	expect(left.map((endpoint) => endpoint.id)).toEqual([originalEndpoint.id]);
	await world().control.emitEvent('timesheet.approved');
	await world().control.settleDeliveries();
	expect(await world().client.waitForExecutions(original.id, 1)).toHaveLength(1);
	await world().client.deactivateWorkflow(original.id);
});
