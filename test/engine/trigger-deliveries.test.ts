/**
 * Deliveries from the sandbox API to an active Workforce Management Trigger, over real HTTP,
 * through n8n's WebhookContext and WorkflowExecute: signature verification, forged calls,
 * retries and redeliveries, secret rolls, test deliveries, clock skew.
 */

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { TEST_KEY } from '../../harness/constants';
import { credentialsHelper, useLogRecorder } from '../support/engine/harness';
import { useTriggerSandbox } from '../support/engine/trigger-receiver';
import {
	envelopeIds,
	postAllAtOnce,
	signatureHeader,
	signedDelivery,
	type SignedDelivery,
} from '../../harness/signed-delivery';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const { fixture, receiver, testMode } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60] },
});
const logged = useLogRecorder();

async function activeTrigger(options: INodeParameters = {}): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: ['member.created', 'member.updated'], options },
		credentials: fixture.credentials(),
	});
}

async function post(
	trigger: LiveTrigger,
	body: string,
	headers: Record<string, string>,
): Promise<{ status: number; text: string; contentType: string | null }> {
	const response = await fetch(trigger.webhookUrl(), {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});
	return {
		status: response.status,
		text: await response.text(),
		contentType: response.headers.get('content-type'),
	};
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('a verified delivery', () => {
	it('starts one execution with the envelope, answered 2xx with an empty body', async () => {
		const trigger = await activeTrigger();
		const member = await fixture.createMemberAndSettle('Ada Staffing');

		expect(trigger.executions).toHaveLength(1);
		const [items] = trigger.executions;
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			id: expect.stringMatching(/^evt_[0-9a-f]+$/),
			type: 'member.created',
			created_at: expect.any(String),
			api_key_mode: 'live',
			sample_event: false,
			received_in: 'published_workflow',
			data: expect.objectContaining({
				id: member.id,
				business_name: 'Ada Staffing',
				source: 'api',
			}),
		});
		expect(trigger.received[0]).toMatchObject({ status: 200, responseBody: '' });
		expect(JSON.stringify(trigger.executions)).not.toContain(await fixture.endpointSecret());
		expect(JSON.stringify(trigger.staticData)).not.toContain('whsec_');

		const [delivery] = await fixture.control.settleDeliveries();
		expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });
	});

	it('does not start for events it did not subscribe to', async () => {
		const trigger = await activeTrigger();
		await fixture.api('POST', '/customers', { name: 'Globex' });
		await fixture.control.settleDeliveries();
		expect(trigger.received).toEqual([]);
	});
});

describe('a request that is not a JSON delivery', () => {
	it.each([
		[
			'multipart/form-data; boundary=x',
			'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
		],
		['application/x-www-form-urlencoded', 'id=evt_1&type=member.created'],
		['text/plain', '{"id":"evt_1"}'],
		['application/xml', '<event id="evt_1"/>'],
	])('is refused with 415 and starts no execution: %s', async (contentType, requestBody) => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();

		const answer = await post(trigger, requestBody, {
			'content-type': contentType,
			'x-webhook-signature': signatureHeader(secret, requestBody, nowSeconds()),
		});

		expect(answer.status).toBe(415);
		expect(answer.contentType).toBe('application/json');
		expect(JSON.parse(answer.text)).toEqual({ error: 'unsupported_content_type' });
		expect(trigger.executions).toEqual([]);
	});

	it('accepts application/json with a charset parameter', async () => {
		const trigger = await activeTrigger();
		const envelope = JSON.stringify({ id: 'evt_charset', type: 'member.created', data: {} });
		const answer = await post(trigger, envelope, {
			'content-type': 'Application/JSON; charset=utf-8',
			'x-webhook-signature': signatureHeader(
				await fixture.endpointSecret(),
				envelope,
				nowSeconds(),
			),
		});
		expect(answer.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('a forged or replayed call', () => {
	const body = JSON.stringify({
		id: 'evt_00ff',
		type: 'member.created',
		created_at: '2026-01-01T00:00:00Z',
		mode: 'live',
		data: { business_name: 'Mallory' },
	});

	it.each([
		['without a signature header', async () => ({})],
		[
			'signed with another secret',
			async () => ({
				'x-webhook-signature': signatureHeader('whsec_guessed', body, nowSeconds()),
			}),
		],
		['with a malformed header', async () => ({ 'x-webhook-signature': `t=${nowSeconds()}` })],
		[
			'signed ten minutes ago (a replay)',
			async () => ({
				'x-webhook-signature': signatureHeader(
					await fixture.endpointSecret(),
					body,
					nowSeconds() - 600,
				),
			}),
		],
	])('is refused with 401 and starts no execution: %s', async (_label, headers) => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();

		const answer = await post(trigger, body, await headers());

		expect(answer.status).toBe(401);
		expect(answer.contentType).toBe('application/json');
		expect(answer.text).not.toContain(secret);
		expect(trigger.executions).toEqual([]);
		// the reason the API's delivery log will not show, for whoever runs n8n
		const { error } = JSON.parse(answer.text) as { error: string };
		expect(logged).toContainEqual({
			level: 'warn',
			message: `Refused a webhook delivery: ${error}`,
			meta: { workflowId: trigger.workflow.id, node: trigger.node.name },
		});
		expect(JSON.stringify(logged)).not.toContain(secret);
	});

	it('costs no call to the endpoint API, unless its signature does not match: then one check of the stored secret a minute', async () => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const [endpoint] = await fixture.control.endpoints();
		await fixture.clearRequests();
		for (const signature of [
			undefined,
			`t=${nowSeconds()}`,
			signatureHeader(secret, body, nowSeconds() - 600),
		]) {
			const headers: Record<string, string> =
				signature === undefined ? {} : { 'x-webhook-signature': signature };
			expect((await post(trigger, body, headers)).status).toBe(401);
		}
		expect(await fixture.endpointCalls()).toEqual([]);

		const guessed = signatureHeader('whsec_guessed', body, nowSeconds());
		for (let attempt = 0; attempt < 3; attempt++) {
			expect((await post(trigger, body, { 'x-webhook-signature': guessed })).status).toBe(401);
		}
		expect(await fixture.endpointCalls()).toEqual([`GET /api/v1/webhook-endpoints/${endpoint.id}`]);
	});

	it('is refused when the signed body was altered, however slightly', async () => {
		const trigger = await activeTrigger();
		const header = signatureHeader(await fixture.endpointSecret(), body, nowSeconds());

		expect((await post(trigger, body, { 'x-webhook-signature': header })).status).toBe(200);
		const respaced = JSON.stringify(JSON.parse(body), null, 1);
		expect((await post(trigger, respaced, { 'x-webhook-signature': header })).status).toBe(401);
		expect(trigger.executions).toHaveLength(1);
	});

	it.each([
		['an object', { value: 'whsec_x' }],
		['a number', 42],
		['an empty string', ''],
	])(
		'is refused with 401, not a 500, when the stored secret is %s (fails closed)',
		async (_label, corrupted) => {
			const trigger = await activeTrigger();
			const secret = await fixture.endpointSecret();
			const corruptedTrigger = receiver().restart(
				trigger,
				trigger.withNodeStaticData((nodeData) => ({ ...nodeData, secret: corrupted })),
			);

			const answer = await post(corruptedTrigger, body, {
				'x-webhook-signature': signatureHeader(secret, body, nowSeconds()),
			});

			expect(answer.status).toBe(401);
			expect(corruptedTrigger.executions).toEqual([]);
		},
	);

	it.each([
		['nothing', () => ({})],
		['an empty endpoint id', (nodeData: IDataObject) => ({ ...nodeData, endpointId: '' })],
	])(
		'is refused, calling no API, when static data holds %s (fails closed)',
		async (_label, stored) => {
			const trigger = await activeTrigger();
			const secret = await fixture.endpointSecret();
			const withoutEndpoint = receiver().restart(trigger, trigger.withNodeStaticData(stored));
			await fixture.clearRequests();

			const answer = await post(withoutEndpoint, body, {
				'x-webhook-signature': signatureHeader(secret, body, nowSeconds()),
			});

			expect(answer.status).toBe(401);
			expect(withoutEndpoint.executions).toEqual([]);
			// no endpoint id: nothing to repair, so forged traffic cannot make it call the API
			expect(await fixture.requests()).toEqual([]);
		},
	);

	it('tells whoever runs n8n why, once a minute however many deliveries are refused', async () => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const withoutEndpoint = receiver().restart(
			trigger,
			trigger.withNodeStaticData(() => ({})),
		);
		const headers = { 'x-webhook-signature': signatureHeader(secret, body, nowSeconds()) };

		for (let attempt = 0; attempt < 3; attempt++) {
			expect((await post(withoutEndpoint, body, headers)).status).toBe(401);
		}

		expect(logged.filter(({ message }) => message.includes('no_secret'))).toEqual([
			{
				level: 'warn',
				message: 'Refused webhook deliveries: static data names no webhook endpoint (no_secret)',
				meta: { workflowId: trigger.workflow.id, node: trigger.node.name },
			},
		]);
	});
});

describe('the sealed secret', () => {
	it('is opened once per process: later deliveries load no credential', async () => {
		const trigger = await activeTrigger();
		await fixture.createMemberAndSettle('First');
		const loadsAfterFirst = credentialsHelper.loads;

		await fixture.createMemberAndSettle('Second');
		await fixture.createMemberAndSettle('Third');

		expect(trigger.executions).toHaveLength(3);
		expect(credentialsHelper.loads).toBe(loadsAfterFirst);
	});

	it.each([
		['one character of the ciphertext changed', (sealed: string) => flipCharacter(sealed, -30)],
		['another format version', (sealed: string) => sealed.replace('wfmseal.v1.', 'wfmseal.v9.')],
		['cut short', (sealed: string) => sealed.slice(0, 40)],
	])('refuses with 401, not a 500, when the sealed secret is %s', async (_label, damage) => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const damaged = receiver().restart(
			trigger,
			trigger.withNodeStaticData((nodeData) => ({
				...nodeData,
				secret: damage(nodeData.secret as string),
			})),
		);
		const body = JSON.stringify({ id: 'evt_0aa1', type: 'member.created', data: {} });

		const answer = await post(damaged, body, {
			'x-webhook-signature': signatureHeader(secret, body, nowSeconds()),
		});

		expect(answer.status).toBe(401);
		expect(damaged.executions).toEqual([]);
	});
});

function flipCharacter(text: string, index: number): string {
	const position = (index + text.length) % text.length;
	const replacement = text[position] === 'A' ? 'B' : 'A';
	return text.slice(0, position) + replacement + text.slice(position + 1);
}

describe('retries and redeliveries', () => {
	it('runs the workflow once when the first attempt failed before reaching n8n', async () => {
		const trigger = await activeTrigger();
		trigger.unavailableFor = 1;
		await fixture.createMemberAndSettle('Retry Ltd');
		expect(trigger.executions).toEqual([]);

		await fixture.control.advanceClock(60);
		const [delivery] = await fixture.control.settleDeliveries();

		expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
		expect(trigger.received.map((received) => received.status)).toEqual([503, 200]);
		expect(trigger.executions).toHaveLength(1);
	});

	it('does not run twice when the API retries after n8n ran but the answer was lost', async () => {
		const trigger = await activeTrigger();
		trigger.responseLostFor = 1;
		await fixture.createMemberAndSettle('Lost Answer plc');
		expect(trigger.executions).toHaveLength(1);

		await fixture.control.advanceClock(60);
		const [delivery] = await fixture.control.settleDeliveries();

		expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
		expect(trigger.received.map((received) => received.status)).toEqual([504, 200]);
		expect(JSON.parse(trigger.received[1].responseBody)).toEqual({
			received: true,
			ignored: 'duplicate',
		});
		expect(trigger.executions).toHaveLength(1);
	});

	it('acknowledges a manual redelivery of the same event without a second run', async () => {
		const trigger = await activeTrigger();
		await fixture.createMemberAndSettle('Redeliver GmbH');
		const [delivery] = await fixture.control.settleDeliveries();

		await fixture.api('POST', `/webhook-deliveries/${delivery.id}/redeliver`);
		await fixture.control.settleDeliveries();

		expect(trigger.received.map((received) => received.status)).toEqual([200, 200]);
		expect(trigger.executions).toHaveLength(1);
	});

	it('runs again for a redelivery when Ignore Duplicate Deliveries is off', async () => {
		const trigger = await activeTrigger({ ignoreDuplicates: false });
		await fixture.createMemberAndSettle('Twice BV');
		const [delivery] = await fixture.control.settleDeliveries();

		await fixture.api('POST', `/webhook-deliveries/${delivery.id}/redeliver`);
		await fixture.control.settleDeliveries();

		expect(trigger.executions).toHaveLength(2);
		expect(trigger.executions[0][0].json.id).toBe(trigger.executions[1][0].json.id);
	});
});

describe('secret rolls', () => {
	it('cost nothing while the API signs with one secret, the stored one: no call to the endpoint API', async () => {
		await activeTrigger();
		await fixture.clearRequests();

		await fixture.createMemberAndSettle('Quiet Staffing');
		await fixture.createMemberAndSettle('Quieter Staffing');

		expect(await fixture.endpointCalls()).toEqual([]);
	});

	it('keeps verifying while the API signs with the rolled and the stored secret', async () => {
		const trigger = await activeTrigger();
		const [endpoint] = await fixture.control.endpoints();
		await fixture.api('POST', `/webhook-endpoints/${endpoint.id}/roll-secret`);

		await fixture.createMemberAndSettle('Rolled Secret SA');

		expect(trigger.received[0].signatureHeader?.match(/v1=/g)).toHaveLength(2);
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('sample events ("Send Test Event")', () => {
	it('are marked sample_event: true in the output', async () => {
		const trigger = await activeTrigger();
		const [endpoint] = await fixture.control.endpoints();

		const result = await fixture.api<IDataObject>(
			'POST',
			`/webhook-endpoints/${endpoint.id}/test`,
			{ event_type: 'member.updated' },
		);

		expect(result).toMatchObject({ ok: true, response_status: 200 });
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0][0].json).toMatchObject({
			type: 'member.updated',
			sample_event: true,
		});
	});

	it('heard in the editor from a sandbox organization say so in three separate fields', async () => {
		const production = receiver().trigger({
			parameters: { events: ['member.created'] },
			credentials: fixture.credentials(TEST_KEY),
		});
		await production.activate();
		const listener = receiver().testListener(production);
		await listener.activate();
		const [endpoint] = (await testMode().endpoints()).filter(
			(candidate) => candidate.url === listener.webhookUrl(),
		);

		await fixture.api('POST', `/webhook-endpoints/${endpoint.id}/test`, undefined, TEST_KEY);

		expect(listener.executions).toHaveLength(1);
		expect(listener.executions[0][0].json).toMatchObject({
			api_key_mode: 'test',
			sample_event: true,
			received_in: 'editor',
		});
	});

	it('are acknowledged without a run when Ignore Sample Events is on', async () => {
		const trigger = await activeTrigger({ ignoreTestDeliveries: true });
		const [endpoint] = await fixture.control.endpoints();

		const result = await fixture.api<IDataObject>('POST', `/webhook-endpoints/${endpoint.id}/test`);

		expect(result).toMatchObject({ ok: true, response_status: 200 });
		expect(trigger.executions).toEqual([]);
		expect(JSON.parse(trigger.received[0].responseBody)).toEqual({
			received: true,
			ignored: 'test_delivery',
		});
		await fixture.createMemberAndSettle('Real Event Co');
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('clock skew', () => {
	it('refuses deliveries signed beyond the tolerance, and accepts them with a wider one', async () => {
		await fixture.control.advanceClock(400);
		const strict = await activeTrigger();
		await fixture.createMemberAndSettle('Skewed Clock Inc');
		expect(strict.received.map((received) => received.status)).toEqual([401]);
		expect(strict.executions).toEqual([]);

		await strict.deactivate();
		const tolerant = await activeTrigger({ signatureToleranceSeconds: 600 });
		await fixture.createMemberAndSettle('Tolerant Clock Inc');
		expect(tolerant.executions).toHaveLength(1);
	});
});

describe('bursts (static data loaded and saved per request, as n8n 2.8 does)', () => {
	async function sendAll(trigger: LiveTrigger, deliveries: SignedDelivery[]): Promise<number[]> {
		return await postAllAtOnce(trigger.webhookUrl(), deliveries);
	}

	it('16 distinct deliveries at once run 16 times; sent again, none runs', async () => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const deliveries = envelopeIds(16, 'b0').map((id) => signedDelivery(secret, id));

		expect(await sendAll(trigger, deliveries)).toEqual(Array(16).fill(200));
		expect(trigger.executions).toHaveLength(16);

		expect(await sendAll(trigger, deliveries)).toEqual(Array(16).fill(200));
		expect(trigger.executions).toHaveLength(16);
	});

	it('keeps all 16 in static data, so a restarted n8n still knows them', async () => {
		const trigger = await activeTrigger();
		const secret = await fixture.endpointSecret();
		const deliveries = envelopeIds(16, 'b1').map((id) => signedDelivery(secret, id));
		await sendAll(trigger, deliveries);
		await sendAll(trigger, deliveries);

		const restarted = receiver().restart(trigger, trigger.staticData);
		await sendAll(restarted, deliveries);
		expect(restarted.executions).toEqual([]);
	});

	it('keeps the memory where n8n 2.36+ resets the change flag as it starts the run', async () => {
		const trigger = await activeTrigger();
		trigger.resetsChangeFlagAtRunStart = true;
		const delivery = signedDelivery(await fixture.endpointSecret(), 'evt_b3a5e7');

		expect(await sendAll(trigger, [delivery])).toEqual([200]);
		expect(trigger.executions).toHaveLength(1);

		// another webhook process, or n8n after a restart, has only what was saved
		const restarted = receiver().restart(trigger, trigger.staticData);
		restarted.resetsChangeFlagAtRunStart = true;
		expect(await sendAll(restarted, [delivery])).toEqual([200]);
		expect(restarted.executions).toEqual([]);
	});

	it('two copies of one envelope at once run once', async () => {
		const trigger = await activeTrigger();
		const delivery = signedDelivery(await fixture.endpointSecret(), 'evt_b2c0ffee');

		expect(await sendAll(trigger, [delivery, delivery])).toEqual([200, 200]);
		expect(trigger.executions).toHaveLength(1);
	});
});
