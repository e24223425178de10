/**
 * What people do with a live trigger workflow, each case as n8n does it: listening for a test event
 * while the workflow is published, rotating the API key, duplicating or importing a workflow with
 * its static data, an API that never answers, n8n failing to start an execution, an expression in
 * the options. Every test here failed on the code before these fixes.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIVE_KEY } from '../../harness/constants';
import { useLogRecorder } from '../support/engine/harness';
import { jsonCopy, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { openNodeSecret } from '../support/sealed-secret';
import { postSignedEnvelope } from '../../harness/signed-delivery';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60] },
});

const logged = useLogRecorder();

const EVENTS = ['member.created', 'member.updated'];

function newTrigger(staticData?: IDataObject): LiveTrigger {
	return receiver().trigger({
		parameters: { events: EVENTS, options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Payroll sync',
		staticData,
	});
}

async function activeTrigger(): Promise<LiveTrigger> {
	const trigger = newTrigger();
	await trigger.activate();
	return trigger;
}

/** Lets the API's next retry fall due, and waits until it has been delivered. */
async function nextRetry(): Promise<void> {
	await fixture.control.advanceAndSettle(60);
}

/** How the trigger's log lines for whoever runs n8n begin, and what they carry. */
function operatorLog(trigger: LiveTrigger) {
	return {
		where: `Workforce Management Trigger "${trigger.node.name}" in workflow "Payroll sync" (${trigger.workflow.id})`,
		meta: { workflowId: trigger.workflow.id, node: trigger.node.name },
	};
}

describe('"Listen for test event" on a published workflow', () => {
	it('runs every event once in production and once in the listener; stopping the listener leaves production as it was', async () => {
		const production = await activeTrigger();
		const listener = receiver().testListener(production);
		await listener.activate();
		expect(listener.node.id).toBe(production.node.id);

		for (const name of ['One Ltd', 'Two Ltd', 'Three Ltd']) {
			await fixture.createMemberAndSettle(name);
		}

		expect(production.executions).toHaveLength(3);
		expect(listener.executions).toHaveLength(3);
		expect(production.executions.map(([item]) => item.json.received_in)).toEqual(
			Array(3).fill('published_workflow'),
		);
		expect(listener.executions.map(([item]) => item.json.received_in)).toEqual(
			Array(3).fill('editor'),
		);

		await listener.deactivate();
		const deliveries = await fixture.control.settleDeliveries();
		const productionEndpoint = String(production.nodeStaticData().endpointId);
		const toProduction = deliveries.filter(
			(delivery) => delivery.endpoint_id === productionEndpoint,
		);
		await fixture.api('POST', `/webhook-deliveries/${toProduction[0].id}/redeliver`);
		await fixture.control.settleDeliveries();
		expect(production.executions).toHaveLength(3);
		expect(JSON.parse(production.received.at(-1)!.responseBody)).toEqual({
			received: true,
			ignored: 'duplicate',
		});
	});
});

describe('a rotated API key', () => {
	it('loses no event: a new process repairs the secret by itself, and the refused delivery runs on its retry', async () => {
		const trigger = await activeTrigger();
		await fixture.createMemberAndSettle('Before the rotation');
		expect(trigger.executions).toHaveLength(1);

		const rotatedKey = await fixture.control.rotateKey(LIVE_KEY);
		trigger.updateCredential({ apiKey: rotatedKey });
		// a webhook process started after the rotation: no opened secret in memory, no reactivation
		const restarted = receiver().restart(trigger, trigger.staticData);
		await fixture.clearRequests();

		await fixture.createMemberAndSettle('After the rotation', rotatedKey);
		expect(restarted.received.map((request) => request.status)).toEqual([401]);
		const endpointId = String(trigger.nodeStaticData().endpointId);
		expect(await fixture.endpointCalls()).toEqual([
			`GET /api/v1/webhook-endpoints/${endpointId}`,
			`POST /api/v1/webhook-endpoints/${endpointId}/roll-secret`,
		]);
		// whoever runs n8n learns, in one line, which workflow, what happened and what it means for deliveries
		const { where, meta } = operatorLog(trigger);
		expect(logged.filter((line) => line.message.startsWith(where))).toEqual([
			{
				level: 'warn',
				message: `${where}: the stored webhook signing secret cannot be used with the credential's API key (was the API key changed?): rolled the signing secret of endpoint ${endpointId}; the API keeps signing with the replaced secret for 24 hours, so deliveries refused meanwhile are accepted on their next retry.`,
				meta,
			},
		]);

		await nextRetry();
		expect(restarted.received.map((request) => request.status)).toEqual([401, 200]);
		expect(restarted.executions).toHaveLength(1);
		expect(restarted.executions[0][0].json.data).toMatchObject({
			business_name: 'After the rotation',
		});
		const [endpoint] = await fixture.control.endpoints();
		expect(openNodeSecret(restarted.nodeStaticData(), rotatedKey)).toBe(endpoint.secret);

		await fixture.createMemberAndSettle('Later still', rotatedKey);
		expect(restarted.executions).toHaveLength(2);
	});

	it('calls the API at most once a minute, whatever forged traffic arrives meanwhile', async () => {
		const trigger = await activeTrigger();
		const rotatedKey = await fixture.control.rotateKey(LIVE_KEY);
		// the credential not updated yet: the repair fails, and must not be retried per request
		const restarted = receiver().restart(trigger, trigger.staticData);
		restarted.updateCredential({ apiKey: `${rotatedKey}_typo` });
		await fixture.clearRequests();

		const forged = { id: 'evt_f0f0', type: 'member.created', data: {} };
		for (let attempt = 0; attempt < 5; attempt++) {
			const answer = await postSignedEnvelope(restarted.webhookUrl(), forged, 'whsec_forged');
			expect(answer.status).toBe(401);
		}
		expect(await fixture.endpointCalls()).toHaveLength(1);
		expect(restarted.executions).toEqual([]);
		const failures = logged.filter(({ message }) => message.includes('could not repair'));
		expect(failures).toEqual([
			{
				level: 'error',
				message: expect.stringContaining(
					'Deliveries are refused with 401 and retried by the API; the next repair is tried in 60 seconds',
				),
				meta: operatorLog(restarted).meta,
			},
		]);
		expect(failures[0].message).toContain(
			`endpoint ${String(trigger.nodeStaticData().endpointId)}: `,
		);
	});

	it('leaves an endpoint deleted meanwhile alone, and says how to register a new one', async () => {
		const trigger = await activeTrigger();
		const endpointId = String(trigger.nodeStaticData().endpointId);
		const rotatedKey = await fixture.control.rotateKey(LIVE_KEY);
		const restarted = receiver().restart(trigger, trigger.staticData);
		restarted.updateCredential({ apiKey: rotatedKey });
		await fixture.control.api(rotatedKey, 'DELETE', `/webhook-endpoints/${endpointId}`);
		await fixture.clearRequests();

		const answer = await postSignedEnvelope(
			restarted.webhookUrl(),
			{ id: 'evt_90e', type: 'member.created', data: {} },
			'whsec_unknown',
		);

		expect(answer.status).toBe(401);
		expect(await fixture.endpointCalls()).toEqual([`GET /api/v1/webhook-endpoints/${endpointId}`]);
		const { where, meta } = operatorLog(restarted);
		expect(logged).toContainEqual({
			level: 'error',
			message: `${where}: the stored webhook signing secret cannot be used with the credential's API key (was the API key changed?), and endpoint ${endpointId} is gone or belongs to another workflow, so its secret is left alone. Deactivate and activate this workflow to register its own endpoint.`,
			meta,
		});
	});
});

describe("a workflow that carries another workflow's static data", () => {
	it('leaves the original endpoint alone when the copy is activated and deactivated', async () => {
		const original = await activeTrigger();
		const [originalEndpoint] = await fixture.control.endpoints();

		// duplicated, imported with `n8n import:workflow` or created through the public API
		const copy = newTrigger(jsonCopy(original.staticData));
		await copy.activate();
		const afterActivation = await fixture.control.endpoints();
		expect(afterActivation).toHaveLength(2);
		expect(afterActivation.find((endpoint) => endpoint.id === originalEndpoint.id)).toMatchObject({
			secret: originalEndpoint.secret,
			url: original.webhookUrl(),
			enabled: true,
		});
		expect(copy.nodeStaticData().endpointId).not.toBe(originalEndpoint.id);
		expect(logged).toContainEqual({
			level: 'warn',
			message: `Webhook endpoint ${originalEndpoint.id} named in this trigger's static data belongs to another workflow; it is left alone`,
			meta: { workflowId: copy.workflow.id, node: copy.node.name },
		});

		await copy.deactivate();
		expect((await fixture.control.endpoints()).map((endpoint) => endpoint.id)).toEqual([
			originalEndpoint.id,
		]);
		await fixture.createMemberAndSettle('Still delivered');
		expect(original.executions).toHaveLength(1);
	});

	it('never deletes an endpoint another integration registered, even when static data names it', async () => {
		const foreign = await fixture.api<{ id: string }>('POST', '/webhook-endpoints', {
			url: 'https://erp.example.com/hooks/workforce',
			events: ['member.created'],
			description: 'ERP integration',
		});
		const trigger = newTrigger({ 'node:Workforce Management Trigger': { endpointId: foreign.id } });

		await trigger.activate();
		await trigger.deactivate();

		const remaining = await fixture.control.endpoints();
		expect(remaining.map((endpoint) => endpoint.id)).toEqual([foreign.id]);
	});
});

describe('an API that accepts connections and never answers', () => {
	it('fails activation after 30 seconds with a message naming the Base URL', async () => {
		const trigger = await activeTrigger();
		await fixture.clearRequests();
		await fixture.injectFault({ kind: 'reset', hold: true, count: 3, path: '/webhook-endpoints' });

		const activation = trigger.activate();

		await expect(activation).rejects.toMatchObject({
			message: expect.stringMatching(
				new RegExp(
					`^The Workforce Management API at ${fixture.sandbox.baseUrl} did not answer GET /webhook-endpoints/[0-9a-f-]+ within 30 seconds$`,
				),
			),
			description: expect.stringContaining('stops waiting 30 seconds after sending a request'),
		});
		// not asked again: a second wait of 30 seconds would follow
		expect(await fixture.endpointCalls()).toHaveLength(1);
	}, 45_000);
});

describe('n8n failing to start the execution', () => {
	it('runs the event on the API retry (n8n answered 500 and saved nothing)', async () => {
		const trigger = await activeTrigger();
		trigger.executionStartFailsFor = 1;

		await fixture.createMemberAndSettle('Start Failed Ltd');
		expect(trigger.executions).toEqual([]);
		await nextRetry();

		expect(trigger.received.map((request) => request.status)).toEqual([500, 200]);
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('the signing secret in the clear in static data', () => {
	it('is never used to accept a delivery: the delivery is refused, the secret rolled, the retry accepted', async () => {
		const trigger = await activeTrigger();
		const [endpoint] = await fixture.control.endpoints();
		const chosen = receiver().restart(
			trigger,
			trigger.withNodeStaticData((nodeData) => ({
				...nodeData,
				secret: 'whsec_chosen_by_someone',
			})),
		);

		const answer = await postSignedEnvelope(
			chosen.webhookUrl(),
			{ id: 'evt_c0ffee', type: 'member.created', data: {} },
			'whsec_chosen_by_someone',
		);

		expect(answer.status).toBe(401);
		expect(chosen.executions).toEqual([]);
		const [rolled] = await fixture.control.endpoints();
		expect(rolled.secret).not.toBe(endpoint.secret);
		await fixture.createMemberAndSettle('Signed by the API');
		expect(chosen.executions).toHaveLength(1);
		expect(openNodeSecret(chosen.nodeStaticData())).toBe(rolled.secret);
	});
});

describe('a signature tolerance from an expression', () => {
	it('refuses every delivery when it is not a number, instead of accepting any timestamp', async () => {
		const trigger = await activeTrigger();
		trigger.node.parameters.options = { signatureToleranceSeconds: '={{ "five minutes" }}' };
		const [endpoint] = await fixture.control.endpoints();
		const aDayAgo = Math.floor(Date.now() / 1000) - 86_400;

		const answer = await postSignedEnvelope(
			trigger.webhookUrl(),
			{ id: 'evt_01d', type: 'member.created', data: {} },
			String(endpoint.secret),
			aDayAgo,
		);

		expect(answer).toEqual({
			status: 401,
			body: JSON.stringify({ error: 'invalid_tolerance' }),
		});
		expect(trigger.executions).toEqual([]);
		expect(logged).toContainEqual({
			level: 'error',
			message:
				'Refused a webhook delivery: "Signature Tolerance (Seconds)" is five minutes, not a positive number of seconds',
			meta: { workflowId: trigger.workflow.id, node: trigger.node.name },
		});
	});
});
