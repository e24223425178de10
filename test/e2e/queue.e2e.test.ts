/**
 * The package in n8n 2.8.4's queue mode: Postgres + Redis, main (editor, API, activation), a worker
 * (every execution) and two webhook processes, each with the package installed from its tarball
 * (harness/queue/). The trigger's steps build on each other, in order.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { ACTION_NODE_TYPE, PACKAGE_NAME, TRIGGER_NODE_TYPE } from '../../harness/constants';
import { endpointsRemoved } from '../support/endpoint-removal';
import { N8N_CACHE_ROOT, N8nInstance, nodeOutput, type Execution } from '../../harness/n8n';
import type { EventEnvelope, WebhookEndpoint } from '../../harness/sandbox-control';
import { postSignedEnvelope } from '../../harness/signed-delivery';
import {
	chainWorkflow,
	memberParameters,
	webhookNode,
	workforceNode,
} from '../../harness/workflows';
import { eventually } from '../../harness/poll';
import { closeServer, listenOnLoopback } from '../support/loopback-server';
import { useE2eWorld } from './use-world';

// main's editor serves /types/nodes.json, which the first test reads
const world = useE2eWorld({ queue: true, editor: true });
const cluster = () => world().queue!;

/** The worker logs `Worker started execution <id> (job <n>)` for every job it takes. */
function ranOnWorker(execution: Execution): boolean {
	return cluster().worker.log.includes(`Worker started execution ${execution.id} (job`);
}

function productionUrl(n8n: N8nInstance, webhookId: string): string {
	return n8n.webhookUrl(webhookId, 'webhook');
}

test('main lists our node types; every process has the package in its own user folder and reports no error loading it', async () => {
	const session = world().client.sessionCookie!;
	const response = await fetch(`${world().n8n.url}/types/nodes.json`, {
		headers: { cookie: `${session.name}=${session.value}` },
	});
	expect(response.status).toBe(200);
	const types = ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
	expect(types).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));

	for (const [role, instance] of cluster().processes) {
		const installed = join(instance.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		expect(`${role}: ${existsSync(join(installed, 'package.json'))}`).toBe(`${role}: true`);
		// n8n's own stack traces name its install folder, whose path holds the package name too
		const errors = instance.log
			.split('\n')
			.filter((line) => line.replaceAll(N8N_CACHE_ROOT, '').includes(PACKAGE_NAME));
		expect(`${role}: ${errors.join('\n')}`).toBe(`${role}: `);
		expect(instance.isRunning).toBe(true);
	}
});

test('an action-node workflow started on a webhook process runs on the worker', async () => {
	await world().control.reset();
	const workflow = await world().client.createWorkflow(
		chainWorkflow('Queue: webhook → create member', [
			webhookNode('Sign-up', 'queue-signup', 'firstEntryJson'),
			workforceNode(
				'Create Member',
				world().credential,
				memberParameters.create({ businessName: '={{ $json.body.name }}' }),
			),
		]),
	);
	await world().client.activateWorkflow(workflow.id);

	const response = await fetch(`${cluster().webhooks[1].url}/webhook/queue-signup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Queue Mode Staffing' }),
	});
	expect(response.status).toBe(200);
	const member = (await response.json()) as { id: string; business_name: string };
	expect(member.business_name).toBe('Queue Mode Staffing');

	const [execution] = await world().client.waitForExecutions(workflow.id, 1);
	expect(execution.status).toBe('success');
	expect(nodeOutput(execution, 'Create Member')).toEqual(
		expect.objectContaining({ id: member.id }),
	);
	expect(ranOnWorker(execution)).toBe(true);
	await world().client.deactivateWorkflow(workflow.id);
});

test('the harness counts a webhook process ready only once it listens: another server answering readiness on its port is not it', async () => {
	// stands for another suite's n8n on the port (harness/n8n/ports.ts): 200 to every request
	const impostor = createServer((_request, response) => response.end('{"status":"ok"}'));
	const port = Number(new URL(await listenOnLoopback(impostor)).port);
	const userFolder = mkdtempSync(join(tmpdir(), 'wfm-e2e-impostor-'));
	try {
		// outside queue mode, a webhook process exits before it listens
		await expect(
			N8nInstance.start({ userFolder, command: 'webhook', port, editor: false }),
		).rejects.toThrow('n8n exited before ready');
	} finally {
		await closeServer(impostor);
		rmSync(userFolder, { recursive: true, force: true });
	}
});

describe('trigger on timesheet.approved', () => {
	const TRIGGER = 'On timesheet approved';
	let workflowId: string;
	let triggerWebhookId: string;
	let endpoint: WebhookEndpoint;
	let executionCount = 0;
	/** The first event the sandbox delivered: fresh envelopes are copies of it with a new id. */
	let template: EventEnvelope;

	/** Both webhook processes' production URL of the trigger. */
	const urls = () =>
		cluster().webhooks.map((instance) => productionUrl(instance, triggerWebhookId));

	/** Another event's envelope, as the API would send it: a real event's body with a fresh id. */
	function freshEnvelope(): EventEnvelope {
		return { ...template, id: `evt_${randomBytes(12).toString('hex')}` };
	}

	/** Waits for `executionCount` executions and checks there are no more (none queued or running). */
	async function settledExecutions(): Promise<Execution[]> {
		const settled = await world().client.waitForExecutions(workflowId, executionCount);
		const all = await world().client.listExecutions(workflowId);
		expect(all.map((execution) => `${execution.id}: ${execution.status}`)).toHaveLength(
			executionCount,
		);
		return settled;
	}

	beforeAll(async () => {
		await world().control.reset();
		const workflow = timesheetApprovedWorkflow(world().credential);
		// the trigger's check of its endpoint every minute (shipped: 5), so that a test can see one
		const triggerNode = workflow.nodes.find((node) => node.name === TRIGGER)!;
		const parameters = triggerNode.parameters as { options?: Record<string, unknown> };
		parameters.options = { ...parameters.options, endpointCheckMinutes: 1 };
		triggerWebhookId = workflow.triggerWebhookId;
		workflowId = (await world().client.createWorkflow(workflow)).id;
	});

	test("activation on main registers exactly one endpoint, with webhook-1's URL; main itself serves no production webhooks", async () => {
		await world().client.activateWorkflow(workflowId);

		const endpoints = await world().control.endpoints();
		expect(endpoints).toHaveLength(1);
		endpoint = endpoints[0];
		expect(endpoint.url).toBe(urls()[0]);
		expect(endpoint.enabled).toBe(true);
		const onMain = await fetch(productionUrl(world().n8n, triggerWebhookId), { method: 'POST' });
		expect(onMain.status).toBe(404);
	});

	test("the API's delivery is verified on webhook-1 and runs once, on the worker; its copy sent to webhook-2 is ignored", async () => {
		const { event } = await world().control.emitEvent('timesheet.approved');
		template = event;
		const [delivery] = await world().control.settleDeliveries();
		expect(delivery).toEqual(expect.objectContaining({ status: 'delivered', event_id: event.id }));
		executionCount += 1;

		const copy = await postSignedEnvelope(urls()[1], event, endpoint.secret!);
		expect(copy).toEqual({ status: 200, body: '{"received":true,"ignored":"duplicate"}' });

		const executions = await settledExecutions();
		expect(executions.map((execution) => execution.status)).toEqual(['success']);
		expect(nodeOutput(executions[0], TRIGGER).id).toBe(event.id);
		expect(ranOnWorker(executions[0])).toBe(true);
	});

	test('a signed envelope sent to webhook-2 runs once, on the worker; its copy sent to webhook-1 is ignored', async () => {
		const envelope = freshEnvelope();

		const first = await postSignedEnvelope(urls()[1], envelope, endpoint.secret!);
		expect(first.status).toBe(200);
		expect(first.body).not.toContain('ignored');
		executionCount += 1;
		const copy = await postSignedEnvelope(urls()[0], envelope, endpoint.secret!);
		expect(copy).toEqual({ status: 200, body: '{"received":true,"ignored":"duplicate"}' });

		const executions = await settledExecutions();
		const ran = executions.filter((execution) => nodeOutput(execution, TRIGGER).id === envelope.id);
		expect(ran).toHaveLength(1);
		expect(ran[0].status).toBe('success');
		expect(ranOnWorker(ran[0])).toBe(true);
	});

	test('a forged delivery gets 401 from either webhook process and starts no execution', async () => {
		const envelope = freshEnvelope();

		for (const url of urls()) {
			const forged = await postSignedEnvelope(url, envelope, 'whsec_not_the_endpoint_secret');
			expect(forged.status).toBe(401);
		}
		// a genuine delivery afterwards: a refused request would have been queued before it
		const genuine = await postSignedEnvelope(urls()[0], envelope, endpoint.secret!);
		expect(genuine.status).toBe(200);
		executionCount += 1;
		const executions = await settledExecutions();
		expect(executions.map((execution) => execution.status)).toEqual(
			Array(executionCount).fill('success'),
		);
	});

	test('two copies of an envelope landing on both webhook processes at the same moment: none lost, at most two runs (the measured limit)', async () => {
		const PAIRS = 8;
		const envelopes = Array.from({ length: PAIRS }, freshEnvelope);
		for (const envelope of envelopes) {
			const answers = await Promise.all(
				urls().map((url) => postSignedEnvelope(url, envelope, endpoint.secret!)),
			);
			expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		}
		// every answer came after n8n had queued its execution: the count is final now
		const queued = await world().client.listExecutions(workflowId);
		executionCount = queued.length;
		const executions = await settledExecutions();

		const runs = envelopes.map(
			(envelope) =>
				executions.filter((execution) => nodeOutput(execution, TRIGGER).id === envelope.id).length,
		);
		expect(runs.every((count) => count === 1 || count === 2)).toBe(true);
		const twice = runs.filter((count) => count === 2).length;
		console.log(`simultaneous copies on two webhook processes: ${twice} of ${PAIRS} ran twice`);
	});

	test("the trigger's schedule runs on main only: an endpoint disabled while n8n runs is enabled again within its minute, and a new event runs once", async () => {
		await world().control.api(world().apiKey, 'PATCH', `/webhook-endpoints/${endpoint.id}`, {
			enabled: false,
		});
		const disabledAt = Date.now();

		await eventually(
			'the endpoint enabled again by the trigger',
			async () => (await world().control.endpoints()).find((each) => each.id === endpoint.id)!,
			(each) => each.enabled,
			{ timeoutMs: 150_000, intervalMs: 1_000 },
		);
		console.log(
			`queue mode: endpoint disabled while n8n ran was enabled again ${((Date.now() - disabledAt) / 1000).toFixed(1)} s later (check every minute)`,
		);
		const found = `webhook endpoint ${endpoint.id} was found disabled`;
		await world().n8n.logged(found);
		for (const instance of [...cluster().webhooks, cluster().worker]) {
			expect(instance.log).not.toContain(found);
		}

		const { event } = await world().control.emitEvent('timesheet.approved');
		await world().control.settleDeliveries();
		executionCount++;
		const executions = await settledExecutions();
		const runs = executions.filter((execution) => nodeOutput(execution, TRIGGER).id === event.id);
		expect(runs).toHaveLength(1);
	}, 240_000); // the wait above allows the schedule 150 s on a loaded machine, then an event runs

	test('deactivation on main deletes the endpoint (once the grace period for a republish is over); the webhook processes stop serving the URL', async () => {
		const since = Date.now();
		await world().client.deactivateWorkflow(workflowId);

		await endpointsRemoved(world().control, [endpoint.id], {
			since,
			what: 'queue-mode deactivation',
		});
		expect(await world().control.endpoints()).toEqual([]);
		for (const url of urls()) {
			const response = await postSignedEnvelope(url, freshEnvelope(), endpoint.secret!);
			expect(response.status).toBe(404);
		}
	});
});
