/**
 * Production and a staging n8n sharing a workflow id: staging imports production's workflow with
 * its static data (endpoint id, sealed secret, duplicate memory) and has the same encryption key,
 * a key of the same organization and its own WEBHOOK_URL. Staging registers an endpoint of its own
 * and never changes or deletes production's.
 */
import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { endpointsRemoved } from '../support/endpoint-removal';
import { eventually } from '../../harness/poll';
import type { WebhookEndpoint } from '../../harness/sandbox-control';
import { StagingN8n } from '../support/staging-n8n';
import { onceEach, runsPerEvent } from './event-runs';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();
const TRIGGER = 'On timesheet approved';

let staging: StagingN8n | undefined;
afterAll(async () => {
	await staging?.stop();
}, 60_000);

async function endpointsWhere(
	what: string,
	check: (endpoints: WebhookEndpoint[]) => boolean,
): Promise<WebhookEndpoint[]> {
	return await eventually(what, async () => await world().control.endpoints(), check);
}

/** What staging must leave as it was. */
function registration({ id, url, secret, events, enabled, description }: WebhookEndpoint) {
	return { id, url, secret, events, enabled, description };
}

/** Emits `count` events and returns their ids once the sandbox has delivered them. */
async function emitEvents(count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let emitted = 0; emitted < count; emitted++) {
		ids.push((await world().control.emitEvent('timesheet.approved')).event.id);
	}
	await world().control.settleDeliveries();
	return ids;
}

test("a staging import of production's workflow registers its own endpoint; production's stays as it was and runs every event, staging active or not", async () => {
	const workflow = timesheetApprovedWorkflow(world().credential);
	const { id } = await world().client.createWorkflow(workflow);
	await world().client.activateWorkflow(id);
	const [production] = await endpointsWhere('registered', (list) => list.length === 1);
	const ranBefore = await emitEvents(1);
	await world().client.waitForExecutions(id, 1);
	const exported = await world().client.getWorkflow(id);
	expect(JSON.stringify(exported.staticData)).toContain(production.id);

	staging = await StagingN8n.start(world());
	await staging.importWorkflow({ ...exported, id });
	await world().control.clearRequests();
	await staging.client.activateWorkflow(id);

	const both = await endpointsWhere('staging registered', (list) => list.length === 2);
	const stagingEndpoint = both.find((endpoint) => endpoint.id !== production.id)!;
	expect(stagingEndpoint.url).toBe(staging.n8n.webhookUrl(workflow.triggerWebhookId, 'webhook'));
	expect(stagingEndpoint.url).not.toBe(production.url);
	expect(registration(both.find((endpoint) => endpoint.id === production.id)!)).toEqual(
		registration(production),
	);
	await staging.n8n.logged(
		`Webhook endpoint ${production.id} ("${production.description as string}") delivers to ${production.url}`,
	);

	const ranWhileStaging = await emitEvents(3);
	const stagingSince = Date.now();
	await staging.client.deactivateWorkflow(id);
	await endpointsRemoved(world().control, [stagingEndpoint.id], {
		since: stagingSince,
		what: 'staging deactivated',
	});
	const left = await world().control.endpoints();
	expect(left.map(registration)).toEqual([registration(production)]);
	const changesToProduction = (await world().control.requests()).filter(
		(request) => request.path.includes(production.id) && request.method !== 'GET',
	);
	expect(changesToProduction).toEqual([]);

	const ranAfterStaging = await emitEvents(1);
	const expected = [...ranBefore, ...ranWhileStaging, ...ranAfterStaging];
	const executions = await world().client.waitForExecutions(id, expected.length);
	expect(runsPerEvent(executions, TRIGGER, expected)).toEqual(onceEach(expected));
	expect(executions).toHaveLength(expected.length);

	const productionSince = Date.now();
	await world().client.deactivateWorkflow(id);
	await endpointsRemoved(world().control, [production.id], {
		since: productionSince,
		what: 'production deactivated',
	});
}, 630_000); // longer than its named waits, a second n8n's start (up to 180 s) among them
