/**
 * The trigger in a real n8n 2.8.4: endpoint registration on activation, signed deliveries through
 * n8n's own webhook server, retries, secret rolls, a restart and deactivation. The steps build on
 * each other, in order.
 */

import { timesheetApprovedWorkflow } from '../demo/workflows';
import { nodeOutput, type Execution } from '../support/n8n';
import type { EventEnvelope, WebhookDelivery, WebhookEndpoint } from '../support/sandbox-control';
import {
	envelopeIds,
	postAllAtOnce,
	signatureHeader,
	signedDelivery,
	type SignedDelivery,
} from '../support/signed-delivery';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();

function outputEventIds(executions: Execution[], triggerName: string): unknown[] {
	return executions.map((execution) => nodeOutput(execution, triggerName).id);
}

describe('trigger on timesheet.approved', () => {
	const TRIGGER = 'On timesheet approved';
	let workflowId: string;
	let triggerWebhookId: string;
	let endpoint: WebhookEndpoint;
	let executionsSoFar = 0;

	/** Emits an event, lets the sandbox deliver it, and returns the executions after it ran once more. */
	async function emitAndExpectOneMoreExecution(): Promise<{
		event: EventEnvelope;
		executions: Execution[];
	}> {
		const { event } = await world().control.emitEvent('timesheet.approved');
		await world().control.settleDeliveries();
		executionsSoFar += 1;
		const executions = await world().client.waitForExecutions(workflowId, executionsSoFar);
		return { event, executions };
	}

	beforeAll(async () => {
		await world().control.reset();
		const workflow = timesheetApprovedWorkflow(world().credential);
		triggerWebhookId = workflow.triggerWebhookId;
		workflowId = (await world().client.createWorkflow(workflow)).id;
	});

	test("activation registers exactly one endpoint with n8n's production URL", async () => {
		await world().client.activateWorkflow(workflowId);

		const endpoints = await world().control.endpoints();
		expect(endpoints).toHaveLength(1);
		endpoint = endpoints[0];
		expect(endpoint.url).toBe(world().n8n.webhookUrl(triggerWebhookId, 'webhook'));
		expect(endpoint.events).toEqual(['timesheet.approved']);
		expect(endpoint.enabled).toBe(true);
	});

	test('an emitted timesheet.approved runs the workflow with the verified envelope', async () => {
		const { event, executions } = await emitAndExpectOneMoreExecution();

		expect(executions).toHaveLength(1);
		expect(executions[0].status).toBe('success');
		expect(nodeOutput(executions[0], TRIGGER)).toEqual(
			expect.objectContaining({
				id: event.id,
				type: 'timesheet.approved',
				api_mode: 'live',
				sample_event: false,
				received_in: 'published_workflow',
				data: event.data,
			}),
		);
		expect(nodeOutput(executions[0], 'Approved timesheet summary')).toEqual(
			expect.objectContaining({ event_id: event.id, hours_worked: event.data.hours_worked }),
		);
	});

	test('the signing secret is sealed: absent from the workflow (editor and public API), the execution and the log', async () => {
		const [current] = await world().control.endpoints();
		const secret = current.secret as string;
		expect(secret).toMatch(/^whsec_/);
		const executions = await world().client.listExecutions(workflowId);
		const places: Record<string, unknown> = {
			'GET /rest/workflows/:id': await world().client.getWorkflowInEditor(workflowId),
			'GET /api/v1/workflows/:id': await world().client.getWorkflow(workflowId),
			'GET /api/v1/executions': executions,
			'GET /rest/executions/:id': await world().client.getExecutionInEditor(executions[0].id),
			"n8n's log": world().n8n.log,
		};
		const asText = (content: unknown) =>
			typeof content === 'string' ? content : JSON.stringify(content);
		const holdingTheSecret = Object.keys(places).filter((place) =>
			asText(places[place]).includes(secret),
		);
		expect(holdingTheSecret).toEqual([]);
		// the static data is there, sealed: the check above looked where the secret used to be.
		// n8n 2.8 copies static data into execution records too; 2.41 keeps it in the workflow only.
		const holdingStaticData = Object.keys(places).filter(
			(place) => place.startsWith('GET') && asText(places[place]).includes('"staticData":{'),
		);
		expect(holdingStaticData).toEqual(
			expect.arrayContaining(['GET /rest/workflows/:id', 'GET /api/v1/workflows/:id']),
		);
		for (const place of holdingStaticData) {
			expect(asText(places[place])).toContain('wfmseal.v1.');
		}
	});

	test('a forged delivery gets 401, a body that is not JSON 415, and neither starts an execution', async () => {
		const body = JSON.stringify({
			id: 'evt_0000forged',
			type: 'timesheet.approved',
			created_at: new Date().toISOString(),
			mode: 'live',
			data: { id: 'forged' },
		});

		const response = await fetch(endpoint.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-webhook-signature': signatureHeader('whsec_not_the_endpoint_secret', body),
			},
			body,
		});
		expect(response.status).toBe(401);

		// bodies n8n parses itself (a multipart body is consumed before the trigger sees it)
		const form = new FormData();
		form.append('id', 'evt_0000multipart');
		const notJson: Array<[string, RequestInit]> = [
			['multipart', { body: form }],
			['urlencoded', { body: new URLSearchParams({ id: 'evt_0000form' }) }],
			['text', { body: body, headers: { 'content-type': 'text/plain' } }],
			['xml', { body: '<event/>', headers: { 'content-type': 'application/xml' } }],
		];
		for (const [kind, request] of notJson) {
			const refused = await fetch(endpoint.url, { method: 'POST', ...request });
			expect(`${kind}: ${refused.status}`).toBe(`${kind}: 415`);
		}

		// a genuine event afterwards: a refused request would have run (or failed) before it
		const { event, executions } = await emitAndExpectOneMoreExecution();
		expect(executions).toHaveLength(2);
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(outputEventIds(executions, TRIGGER)[1]).toBe(event.id);
		expect(outputEventIds(executions, TRIGGER)).not.toContain('evt_0000forged');
	});

	test('16 distinct deliveries at once run 16 times, sent again none; 2 simultaneous copies of one run once', async () => {
		const secret = (await world().control.endpoints())[0].secret as string;
		const timesheet = { id: 'example-timesheet', member_id: 'example-member', hours_worked: 8 };
		const signed = (id: string) => signedDelivery(secret, id, 'timesheet.approved', timesheet);
		const sendAtOnce = async (deliveries: SignedDelivery[]) =>
			await postAllAtOnce(endpoint.url, deliveries);
		const burst = envelopeIds(16, 'e2e0').map(signed);

		expect(await sendAtOnce(burst)).toEqual(Array(16).fill(200));
		executionsSoFar += 16;
		await world().client.waitForExecutions(workflowId, executionsSoFar);

		expect(await sendAtOnce(burst)).toEqual(Array(16).fill(200));
		const copy = signed('evt_e2e0c0ffee');
		expect(await sendAtOnce([copy, copy])).toEqual([200, 200]);
		executionsSoFar += 1;

		// a genuine event afterwards: a repeat that ran would have finished before it
		const { executions } = await emitAndExpectOneMoreExecution();
		expect(executions).toHaveLength(executionsSoFar);
		const eventIds = outputEventIds(executions, TRIGGER);
		for (const id of [...envelopeIds(16, 'e2e0'), 'evt_e2e0c0ffee']) {
			expect(`${id}: ${eventIds.filter((each) => each === id).length}`).toBe(`${id}: 1`);
		}
	});

	test('after a secret roll deliveries still verify', async () => {
		const rolled = await world().control.api<{ secret: string }>(
			world().apiKey,
			'POST',
			`/webhook-endpoints/${endpoint.id}/roll-secret`,
		);
		expect(rolled.secret).toMatch(/^whsec_/);

		const { event, executions } = await emitAndExpectOneMoreExecution();
		expect(executions.at(-1)!.status).toBe('success');
		expect(outputEventIds(executions, TRIGGER).at(-1)).toBe(event.id);
	});

	test('restarting n8n with the workflow active creates no second endpoint; a failed first attempt retried runs once', async () => {
		await world().stopN8n();
		// delivered while n8n is down: the first attempt fails
		const { event } = await world().control.emitEvent('timesheet.approved');
		const deliveryOf = (deliveries: WebhookDelivery[]) =>
			deliveries.find((delivery) => delivery.event_id === event.id)!;
		const firstAttempt = deliveryOf(await world().control.settleDeliveries());
		expect(firstAttempt.status).not.toBe('delivered');

		await world().startN8n();
		const endpoints = await world().control.endpoints();
		expect(endpoints.map((each) => each.id)).toEqual([endpoint.id]);

		await world().control.advanceClock(120);
		expect(deliveryOf(await world().control.settleDeliveries()).status).toBe('delivered');
		executionsSoFar += 1;
		await world().client.waitForExecutions(workflowId, executionsSoFar);

		// a redelivery of the same envelope is acknowledged without a second run
		await world().control.api(
			world().apiKey,
			'POST',
			`/webhook-deliveries/${firstAttempt.id}/redeliver`,
		);
		await world().control.settleDeliveries();
		const { executions } = await emitAndExpectOneMoreExecution();
		const eventIds = outputEventIds(executions, TRIGGER);
		expect(eventIds.filter((id) => id === event.id)).toHaveLength(1);
		expect(executions).toHaveLength(executionsSoFar);
	});

	test('republishing with a changed trigger replaces the endpoint, so a retry queued before it is never delivered (n8n calls delete() as for a deactivation)', async () => {
		const [before] = await world().control.endpoints();
		// a first attempt that fails: n8n is down when the event is delivered
		await world().stopN8n();
		const { event } = await world().control.emitEvent('timesheet.approved');
		const deliveryOf = (deliveries: WebhookDelivery[]) =>
			deliveries.find((delivery) => delivery.event_id === event.id);
		expect(deliveryOf(await world().control.settleDeliveries())?.status).toBe('failed');
		await world().startN8n();

		// n8n 2.41 re-registers only triggers whose settings changed (2.8 every trigger), so the
		// new version also listens to timesheet.disputed
		const saved = await world().client.getWorkflow(workflowId);
		const nodes = saved.nodes.map((node) =>
			node.name === TRIGGER
				? {
						...node,
						parameters: {
							...(node.parameters as object),
							events: ['timesheet.approved', 'timesheet.disputed'],
						},
					}
				: node,
		);
		await world().client.updateWorkflow(workflowId, { ...saved, name: `${saved.name} v2`, nodes });

		const after = await world().control.endpoints();
		expect(after).toHaveLength(1);
		expect(after[0].id).not.toBe(before.id);
		// past the first retry (60 s); the sandbox clock stays under n8n's 300 s signature tolerance
		await world().control.advanceClock(90);
		expect(deliveryOf(await world().control.settleDeliveries())?.status).not.toBe('delivered');
		const { event: next, executions } = await emitAndExpectOneMoreExecution();
		const eventIds = outputEventIds(executions, TRIGGER);
		expect(eventIds.at(-1)).toBe(next.id);
		expect(eventIds).not.toContain(event.id);
	}, 240_000); // an n8n restart takes 20-60 s on a loaded machine

	test('deactivation deletes the endpoint', async () => {
		await world().client.deactivateWorkflow(workflowId);

		expect(await world().control.endpoints()).toEqual([]);
	});
});
