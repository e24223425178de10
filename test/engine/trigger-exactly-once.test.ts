/**
 * Each event runs once, where static data has to carry the duplicate memory: a burst followed by a
 * restart, an execution whose start outlasted the API's patience, a captured test delivery replayed
 * as a real one. Static data is loaded and saved per request, as n8n's webhook service does.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';
import {
	envelopeIds,
	postAllAtOnce,
	postOverKeepAlive,
	postSignedEnvelope,
	signedDelivery,
} from '../../harness/signed-delivery';

// the API gives up on an answer after 1 s here, and retries each minute of its clock
const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60], timeoutMs: 1000 },
});

async function activeTrigger(options: INodeParameters = {}): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: ['member.created'], options },
		credentials: fixture.credentials(),
	});
}

async function emitMembers(count: number): Promise<void> {
	for (let index = 0; index < count; index++) {
		await fixture.api('POST', '/members', { business_name: `Burst ${index}` });
	}
	await fixture.control.settleDeliveries();
}

/** Lets the API's next retry fall due, and waits until it has been delivered. */
async function nextRetry(): Promise<void> {
	await fixture.control.advanceAndSettle(60);
}

describe('a burst, then a restart', () => {
	it('16 deliveries at once, n8n restarted, the same 16 again: none runs again', async () => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const signed = envelopeIds(16, 'c0').map((id) => signedDelivery(secret, id));

		expect(await postAllAtOnce(trigger.webhookUrl(), signed)).toEqual(Array(16).fill(200));
		expect(trigger.executions).toHaveLength(16);

		const restarted = receiver().restart(trigger, trigger.staticData);
		expect(await postAllAtOnce(restarted.webhookUrl(), signed)).toEqual(Array(16).fill(200));
		expect(restarted.executions).toEqual([]);
	});

	it('16 events whose answers a proxy lost, retried by the API after a restart: each runs once', async () => {
		const trigger = await activeTrigger();
		trigger.responseLostFor = 16;
		await emitMembers(16);
		expect(trigger.executions).toHaveLength(16);

		const restarted = receiver().restart(trigger, trigger.staticData);
		await nextRetry();

		expect(restarted.received.map((request) => request.status)).toEqual(Array(16).fill(200));
		expect(runsPerEvent([trigger, restarted])).toEqual(Array(16).fill(1));
	});

	it('keeps the burst where n8n 2.36+ resets the change flag as it starts each run', async () => {
		const trigger = await activeTrigger();
		trigger.resetsChangeFlagAtRunStart = true;
		const secret = await fixture.endpointSecret();
		const signed = envelopeIds(16, 'c2').map((id) => signedDelivery(secret, id));
		await postAllAtOnce(trigger.webhookUrl(), signed);

		const restarted = receiver().restart(trigger, trigger.staticData);
		restarted.resetsChangeFlagAtRunStart = true;
		await postAllAtOnce(restarted.webhookUrl(), signed);
		expect(restarted.executions).toEqual([]);
	});
});

describe('a busy organization: 100 events an hour', () => {
	useMovableDate();

	it('ignores a redelivery of an event asked for 24 hours and 2,400 events later', async () => {
		const trigger = await activeTrigger();
		await fixture.api('POST', '/members', { business_name: 'Approved on Monday' });
		const [monday] = await fixture.control.settleDeliveries();
		const secret = await fixture.endpointSecret();

		for (let hour = 0; hour < 24; hour++) {
			moveDate(3600);
			const signed = envelopeIds(100, `${hour.toString(16).padStart(2, '0')}`).map((id) =>
				signedDelivery(secret, id),
			);
			const { statuses } = await postOverKeepAlive(trigger.webhookUrl(), signed, 8);
			expect(statuses).toEqual(Array(100).fill(200));
		}
		expect(trigger.executions).toHaveLength(2401);

		await fixture.control.advanceClock(0);
		await fixture.api('POST', `/webhook-deliveries/${monday.id}/redeliver`, {});
		await fixture.control.settleDeliveries();
		expect(trigger.received.at(-1)?.responseBody).toBe(
			JSON.stringify({ received: true, ignored: 'duplicate' }),
		);
		expect(trigger.executions).toHaveLength(2401);
	});
});

describe('an execution whose start outlasts the API', () => {
	it('runs on the retry: the API gave up before n8n answered, and n8n then failed to start it', async () => {
		const trigger = await activeTrigger();
		trigger.executionStartOutlastsClientFor = 1;

		await fixture.api('POST', '/members', { business_name: 'Slow Start Ltd' });
		const [first] = await fixture.control.settleDeliveries();
		expect(first.last_error).toMatch(/Timed out/);
		expect(trigger.executions).toEqual([]);

		await nextRetry();
		expect(trigger.executions).toHaveLength(1);
		await nextRetry();
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('test deliveries', () => {
	it.each([
		['ignored', { ignoreTestDeliveries: true }],
		['run', {}],
	])(
		'a %s test delivery replayed without its test header does not run as a real event',
		async (_, options) => {
			const trigger = await activeTrigger(options);
			const [endpoint] = await fixture.control.endpoints();
			await fixture.api('POST', `/webhook-endpoints/${endpoint.id}/test`, {});
			const [captured] = trigger.received;
			expect(captured.status).toBe(200);
			const runs = trigger.executions.length;

			// the captured body and signature, within the tolerance, without X-Webhook-Test
			const replay = await fetch(trigger.webhookUrl(), {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-webhook-signature': String(captured.signatureHeader),
				},
				body: captured.body,
			});
			expect(await replay.json()).toEqual({ received: true, ignored: 'duplicate' });
			expect(trigger.executions).toHaveLength(runs);
		},
	);
});

describe('a signature tolerance from an expression', () => {
	it('takes a numeric string ("300") as seconds', async () => {
		const trigger = await activeTrigger({ signatureToleranceSeconds: '={{ "300" }}' });
		const secret = await fixture.endpointSecret();
		const fourMinutesAgo = Math.floor(Date.now() / 1000) - 240;
		const sixMinutesAgo = Math.floor(Date.now() / 1000) - 360;

		const recent = await postSignedEnvelope(
			trigger.webhookUrl(),
			{ id: 'evt_70e1', type: 'member.created', data: {} },
			secret,
			fourMinutesAgo,
		);
		const stale = await postSignedEnvelope(
			trigger.webhookUrl(),
			{ id: 'evt_70e2', type: 'member.created', data: {} },
			secret,
			sixMinutesAgo,
		);

		expect([recent.status, stale.status]).toEqual([200, 401]);
		expect(stale.body).toBe(JSON.stringify({ error: 'timestamp_outside_tolerance' }));
		expect(trigger.executions).toHaveLength(1);
	});
});
