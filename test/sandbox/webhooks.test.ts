import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { api, control } from '../../harness/sandbox-api';
import { createCustomer, createMember } from '../support/sandbox-records';
import {
	DELIVERY_SHAPE,
	ENDPOINT_SHAPE,
	expectError,
	expectList,
	expectShape,
} from '../support/sandbox-shapes';
import { WebhookReceiver } from '../support/webhook-receiver';
import { isSignedWith, signatureCount } from '../support/independent-verifier';
import { LIVE_KEY, TEST_KEY } from '../../harness/constants';
import { useSandbox } from '../support/sandbox-fixture';
import { closeServer, listenOnLoopback } from '../support/loopback-server';
import {
	MEMBERS_AND_CUSTOMERS_EVENT_TYPES,
	SPEC_EVENT_TYPES,
} from '../support/spec-event-types';

const fixture = useSandbox({ webhooks: { allowInsecureUrls: true } });
const receiver = new WebhookReceiver();

beforeAll(() => receiver.start());
beforeEach(() => receiver.reset());
afterAll(() => receiver.stop());

async function createEndpoint(events: string[] = ['*'], key = LIVE_KEY, url = receiver.url) {
	const answer = await api(fixture.sandbox, key, 'POST', '/webhook-endpoints', {
		url,
		events,
		description: 'n8n',
	});
	expect(answer.status).toBe(201);
	return answer.body as { id: string; secret: string; [field: string]: unknown };
}

async function settle(): Promise<any[]> {
	return (await control(fixture.sandbox, 'POST', '/deliveries/settle')).deliveries;
}

async function advance(seconds: number): Promise<void> {
	await control(fixture.sandbox, 'POST', '/clock/advance', { seconds });
}

function liveApi(method: string, path: string, body?: unknown) {
	return api(fixture.sandbox, LIVE_KEY, method, path, body);
}

/** An event through the control interface to Acme's live endpoints, with example data if none. */
function emitLiveEvent(type: string, data?: object) {
	return control(fixture.sandbox, 'POST', '/events', {
		organization: 'acme',
		mode: 'live',
		type,
		data,
	});
}

async function getEndpoint(id: string) {
	return (await liveApi('GET', `/webhook-endpoints/${id}`)).body;
}

describe('webhook endpoints', () => {
	it('returns the secret only in the create response, with a masked preview elsewhere', async () => {
		const created = await createEndpoint(['member.created', 'customer.updated']);
		expectShape(created, { ...ENDPOINT_SHAPE, secret: 'string' });
		expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{16,}$/);
		expect(created).toMatchObject({
			url: receiver.url,
			description: 'n8n',
			mode: 'live',
			enabled: true,
			events: ['member.created', 'customer.updated'],
			secret_preview: `whsec_…${created.secret.slice(-4)}`,
			consecutive_failures: 0,
			disabled_at: null,
			last_delivery_at: null,
		});

		const fetched = await liveApi('GET', `/webhook-endpoints/${created.id}`);
		expectShape(fetched.body, ENDPOINT_SHAPE);
		const list = await liveApi('GET', '/webhook-endpoints');
		expectList(list.body, ENDPOINT_SHAPE);
		expect(list.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([created.id]);
		expect(JSON.stringify([fetched.body, list.body])).not.toContain(created.secret);
	});

	it('lists endpoints per mode', async () => {
		const live = await createEndpoint();
		const test = await createEndpoint(['*'], TEST_KEY);
		expect(test.mode).toBe('test');
		const testList = await api(fixture.sandbox, TEST_KEY, 'GET', '/webhook-endpoints');
		expect(testList.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([test.id]);
		const liveList = await liveApi('GET', '/webhook-endpoints');
		expect(liveList.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual([live.id]);
	});

	it('updates only the supplied fields', async () => {
		const created = await createEndpoint(['member.created']);
		const answer = await liveApi('PATCH', `/webhook-endpoints/${created.id}`, {
			description: null,
			events: ['member.updated', 'member.verified'],
		});
		expect(answer.status).toBe(200);
		expectShape(answer.body, ENDPOINT_SHAPE);
		expect(answer.body).toMatchObject({
			url: receiver.url,
			description: null,
			events: ['member.updated', 'member.verified'],
			enabled: true,
		});
		const invalid = await liveApi('PATCH', `/webhook-endpoints/${created.id}`, {
			url: 'ftp://example.com',
		});
		expectError(invalid, 400, 'validation_failed');
		expect(invalid.body.error.details[0].field).toBe('url');
	});

	it('deletes an endpoint and its delivery history with 204', async () => {
		const endpoint = await createEndpoint();
		await createMember(fixture.sandbox);
		await settle();
		const before = await liveApi('GET', `/webhook-deliveries?endpoint_id=${endpoint.id}`);
		expect(before.body.data).toHaveLength(1);

		const deleted = await fetch(`${fixture.sandbox.baseUrl}/webhook-endpoints/${endpoint.id}`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${LIVE_KEY}` },
		});
		expect(deleted.status).toBe(204);
		expect(await deleted.text()).toBe('');
		expect((await liveApi('GET', `/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
		const after = await liveApi('GET', '/webhook-deliveries');
		expect(after.body.data).toEqual([]);
	});

	it('accepts https URLs, and http only for loopback hosts when allowInsecureUrls is on', async () => {
		await createEndpoint(['*'], LIVE_KEY, 'https://hooks.example.com/wfm');
		await createEndpoint(['*'], LIVE_KEY, 'http://localhost:5678/webhook/abc');
		const remote = await liveApi('POST', '/webhook-endpoints', {
			url: 'http://hooks.example.com/wfm',
			events: ['*'],
		});
		expectError(remote, 400, 'validation_failed');
		expect(remote.body.error.details).toEqual([
			{ field: 'url', message: expect.stringContaining('HTTPS') },
		]);
	});

	it.each([
		['an upper-case scheme', 'HTTPS://hooks.example.com/wfm'],
		['a missing slash', 'https:/hooks.example.com/wfm'],
		['user info', 'https://user:secret@hooks.example.com/wfm'],
		['a leading space', ' https://hooks.example.com/wfm'],
		['a space in the path', 'https://hooks.example.com/w fm'],
	])('refuses a URL with %s, which new URL() alone would rewrite', async (_case, url) => {
		const answer = await liveApi('POST', '/webhook-endpoints', { url, events: ['*'] });
		expectError(answer, 400, 'validation_failed');
		expect(answer.body.error.details).toEqual([
			{ field: 'url', message: expect.stringContaining('https://host/path') },
		]);
		expect((await liveApi('GET', '/webhook-endpoints')).body.data).toEqual([]);
	});
});

describe('signed deliveries', () => {
	it('POSTs member.created with the member plus source api, signed over the exact body bytes', async () => {
		const endpoint = await createEndpoint(['member.created']);
		const member = await createMember(fixture.sandbox);
		const [delivery] = await settle();

		expect(receiver.received).toHaveLength(1);
		const [received] = receiver.received;
		const { headers, body } = received;
		expect(headers['content-type']).toBe('application/json');
		expect(headers['x-webhook-test']).toBeUndefined();
		expect(headers['x-webhook-id']).toBe(body.id);
		expect(headers['x-webhook-delivery-id']).toBe(delivery.id);
		expect(headers['user-agent']).toMatch(/^WorkforceManagement-Webhooks\//);
		expect(isSignedWith(received, endpoint.secret)).toBe(true);
		expect(isSignedWith({ ...received, rawBody: `${received.rawBody} ` }, endpoint.secret)).toBe(
			false,
		);
		expect(isSignedWith(received, 'whsec_wrong')).toBe(false);
		expect(String(headers['x-webhook-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

		expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'mode', 'type']);
		expect(body).toMatchObject({
			type: 'member.created',
			mode: 'live',
			data: { ...member, source: 'api' },
		});
		expect(body.id).toMatch(/^evt_[0-9a-f]+$/);

		expectShape(
			Object.fromEntries(Object.entries(delivery).filter(([key]) => key in DELIVERY_SHAPE)),
			DELIVERY_SHAPE,
		);
		expect(delivery).toMatchObject({
			endpoint_id: endpoint.id,
			event_id: body.id,
			event_type: 'member.created',
			status: 'delivered',
			attempts: 1,
			last_response_status: 200,
			last_error: null,
			redelivery_of: null,
		});
		const stats = await getEndpoint(endpoint.id);
		expect(stats.last_success_at).not.toBeNull();
		expect(stats.last_delivery_at).not.toBeNull();
	});

	it('emits the event of each operation to subscribed endpoints of the same organization and mode only', async () => {
		await createEndpoint(['*']);
		const onlyCustomers = await createEndpoint(['customer.created']);
		await createEndpoint(['*'], TEST_KEY);
		await createEndpoint(['*'], 'wfm_live_globex_all');

		const member = await createMember(fixture.sandbox);
		await liveApi('PATCH', `/members/${member.id}`, { capacity: 2 });
		await liveApi('POST', `/members/${member.id}/verify`, {});
		await liveApi('POST', `/members/${member.id}/deactivate`, {});
		const customer = await createCustomer(fixture.sandbox);
		await liveApi('PATCH', `/customers/${customer.id}`, { notes: 'VIP' });
		const site = await liveApi('POST', '/sites', {
			customer_id: customer.id,
			name: 'East',
		});
		await liveApi('PATCH', `/sites/${site.body.id}`, { is_active: false });
		const deliveries = await settle();

		const liveTypes = deliveries
			.filter((delivery) => delivery.organization === 'acme' && delivery.mode === 'live')
			.reverse()
			.map(
				(delivery) =>
					`${delivery.endpoint_id === onlyCustomers.id ? 'customers-only' : 'all'}:${delivery.event_type}`,
			);
		expect(liveTypes).toEqual([
			'all:member.created',
			'all:member.updated',
			'all:member.verified',
			'all:member.deactivated',
			'all:customer.created',
			'customers-only:customer.created',
			'all:customer.updated',
			'all:customer_location.created',
			'all:customer_location.updated',
		]);
		expect(deliveries).toHaveLength(9);
		const deactivated = receiver.received.find(
			(delivery) => delivery.body.type === 'member.deactivated',
		);
		expect(deactivated?.body.data).toMatchObject({
			id: member.id,
			is_active: false,
			status: 'inactive',
			capacity: 2,
		});
		const siteUpdate = receiver.received.find(
			(delivery) => delivery.body.type === 'customer_location.updated',
		);
		expect(siteUpdate?.body.data).toMatchObject({ id: site.body.id, is_active: false });
	});

	it('delivers test-mode events to test-mode endpoints with mode test', async () => {
		const endpoint = await createEndpoint(['member.created'], TEST_KEY);
		await createMember(fixture.sandbox, TEST_KEY);
		const [delivery] = await settle();
		expect(delivery).toMatchObject({ endpoint_id: endpoint.id, mode: 'test', status: 'delivered' });
		expect(receiver.received[0].body.mode).toBe('test');
		const listed = await api(fixture.sandbox, TEST_KEY, 'GET', '/webhook-deliveries');
		expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([delivery.id]);
		expect((await liveApi('GET', '/webhook-deliveries')).body.data).toEqual([]);
		const liveOnly = await control(
			fixture.sandbox,
			'POST',
			'/deliveries/settle?organization=acme&mode=live',
		);
		expect(liveOnly.deliveries).toEqual([]);
		const testOnly = await control(fixture.sandbox, 'GET', '/deliveries?mode=test');
		expect(testOnly.deliveries.map((item: { id: string }) => item.id)).toEqual([delivery.id]);
	});
});

describe('retries, 410 and auto-disable', () => {
	it('retries after a 500 on the sandbox clock with the same envelope id and bytes', async () => {
		const endpoint = await createEndpoint(['member.created']);
		receiver.answerNext(500);
		await createMember(fixture.sandbox);
		const [failed] = await settle();
		expect(failed).toMatchObject({
			status: 'failed',
			attempts: 1,
			last_response_status: 500,
			last_error: expect.stringContaining('500'),
		});
		expect(
			Date.parse(failed.next_attempt_at) - Date.parse(failed.created_at),
		).toBeGreaterThanOrEqual(59_000);
		expect((await getEndpoint(endpoint.id)).consecutive_failures).toBe(1);

		await advance(30);
		expect((await settle())[0]).toMatchObject({ status: 'failed', attempts: 1 });
		await advance(31);
		const [delivered] = await settle();
		expect(delivered).toMatchObject({
			id: failed.id,
			status: 'delivered',
			attempts: 2,
			last_response_status: 200,
		});

		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].body.id).toBe(receiver.received[0].body.id);
		expect(receiver.received[1].rawBody).toBe(receiver.received[0].rawBody);
		for (const delivery of receiver.received) {
			expect(isSignedWith(delivery, endpoint.secret)).toBe(true);
		}
		expect((await getEndpoint(endpoint.id)).consecutive_failures).toBe(0);
	});

	it('gives up after 8 attempts following the configured delays', async () => {
		await createEndpoint(['member.created']);
		receiver.answerNext(...Array(8).fill(503));
		await createMember(fixture.sandbox);
		await settle();
		for (const delay of [60, 300, 1800, 3600, 7200, 21600, 43200]) {
			await advance(delay);
			await settle();
		}
		const [dead] = await settle();
		expect(dead).toMatchObject({
			status: 'dead',
			attempts: 8,
			last_response_status: 503,
			next_attempt_at: null,
		});
		await advance(86_400);
		await settle();
		expect(receiver.received).toHaveLength(8);
	});

	it('stops at once on 410', async () => {
		await createEndpoint(['member.created']);
		receiver.answerNext(410);
		await createMember(fixture.sandbox);
		const [dead] = await settle();
		expect(dead).toMatchObject({ status: 'dead', attempts: 1, last_response_status: 410 });
		await advance(3600);
		await settle();
		expect(receiver.received).toHaveLength(1);
	});

	it('retries a refused connection and records the error', async () => {
		const closed = new WebhookReceiver();
		await closed.start();
		const url = closed.url;
		await closed.stop();
		await createEndpoint(['member.created'], LIVE_KEY, url);
		await createMember(fixture.sandbox);
		const [failed] = await settle();
		expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_response_status: null });
		expect(failed.last_error).toMatch(/ECONNREFUSED/);
	});

	it('disables an endpoint after 20 consecutive failures and re-enables it through PATCH', async () => {
		const endpoint = await createEndpoint(['member.created']);
		receiver.answerNext(...Array(20).fill(500));
		for (let index = 0; index < 20; index++) await createMember(fixture.sandbox);
		await settle();

		const disabled = await getEndpoint(endpoint.id);
		expect(disabled).toMatchObject({ enabled: false, consecutive_failures: 20 });
		expect(disabled.disabled_at).not.toBeNull();
		expect(disabled.disabled_reason).toEqual(expect.stringContaining('20'));

		await createMember(fixture.sandbox);
		await advance(60);
		const afterDisable = await settle();
		expect(afterDisable).toHaveLength(20);
		expect(afterDisable.every((delivery) => delivery.status === 'dead')).toBe(true);
		expect(receiver.received).toHaveLength(20);

		const redeliver = await liveApi('POST', `/webhook-deliveries/${afterDisable[0].id}/redeliver`);
		expectError(redeliver, 409, 'endpoint_disabled');

		const enabled = await liveApi('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: true });
		expect(enabled.body).toMatchObject({
			enabled: true,
			consecutive_failures: 0,
			disabled_at: null,
			disabled_reason: null,
		});
		await createMember(fixture.sandbox);
		const [latest] = await settle();
		expect(latest).toMatchObject({ status: 'delivered', endpoint_id: endpoint.id });
	});
});

describe('secret roll', () => {
	it('signs with both secrets for 24 hours after a roll, then with the new one only', async () => {
		const endpoint = await createEndpoint(['member.created']);
		const rolled = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/roll-secret`);
		expect(rolled.status).toBe(200);
		const newSecret: string = rolled.body.secret;
		expect(newSecret).toMatch(/^whsec_/);
		expect(newSecret).not.toBe(endpoint.secret);
		expect((await getEndpoint(endpoint.id)).secret_preview).toBe(`whsec_…${newSecret.slice(-4)}`);

		await createMember(fixture.sandbox);
		await settle();
		const during = receiver.received[0];
		expect(signatureCount(during)).toBe(2);
		expect(isSignedWith(during, newSecret)).toBe(true);
		expect(isSignedWith(during, endpoint.secret)).toBe(true);

		await advance(23 * 3600);
		await createMember(fixture.sandbox);
		await settle();
		expect(signatureCount(receiver.received[1])).toBe(2);

		await advance(3600 + 1);
		await createMember(fixture.sandbox);
		await settle();
		const after = receiver.received[2];
		expect(signatureCount(after)).toBe(1);
		expect(isSignedWith(after, newSecret)).toBe(true);
		expect(isSignedWith(after, endpoint.secret)).toBe(false);
	});

	it('keeps each replaced secret signing for 24 hours from its own roll when rolled twice', async () => {
		const endpoint = await createEndpoint(['member.created']);
		const first = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/roll-secret`);
		await advance(3600);
		const second = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/roll-secret`);

		await createMember(fixture.sandbox);
		await settle();
		const during = receiver.received[0];
		expect(signatureCount(during)).toBe(3);
		for (const secret of [second.body.secret, first.body.secret, endpoint.secret]) {
			expect(isSignedWith(during, secret)).toBe(true);
		}

		// the original secret's window ends 24 hours after the first roll, the first roll's after the second
		await advance(23 * 3600 + 1);
		await createMember(fixture.sandbox);
		await settle();
		const later = receiver.received[1];
		expect(signatureCount(later)).toBe(2);
		expect(isSignedWith(later, endpoint.secret)).toBe(false);
		expect(isSignedWith(later, first.body.secret)).toBe(true);

		await advance(3600);
		await createMember(fixture.sandbox);
		await settle();
		expect(signatureCount(receiver.received[2])).toBe(1);
		expect(isSignedWith(receiver.received[2], second.body.secret)).toBe(true);
	});
});

describe('redeliver and test sends', () => {
	it('redelivers the same envelope with redelivery_of set', async () => {
		const endpoint = await createEndpoint(['member.created']);
		await createMember(fixture.sandbox);
		const [original] = await settle();
		const answer = await liveApi('POST', `/webhook-deliveries/${original.id}/redeliver`);
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body)).toEqual(['delivery_id']);
		expect(answer.body.delivery_id).not.toBe(original.id);

		const deliveries = await settle();
		const redelivery = deliveries.find((delivery) => delivery.id === answer.body.delivery_id);
		expect(redelivery).toMatchObject({
			redelivery_of: original.id,
			event_id: original.event_id,
			endpoint_id: endpoint.id,
			status: 'delivered',
			attempts: 1,
		});
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].body.id).toBe(receiver.received[0].body.id);
		expect(isSignedWith(receiver.received[1], endpoint.secret)).toBe(true);
	});

	it('sends a test delivery marked X-Webhook-Test: true', async () => {
		const endpoint = await createEndpoint(['customer.created']);
		const answer = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/test`, {});
		expect(answer.status).toBe(200);
		expectShape(answer.body, {
			delivery_id: 'uuid',
			ok: 'boolean',
			response_status: 'integer',
			duration_ms: 'integer',
		});
		expect(answer.body).toMatchObject({ ok: true, response_status: 200 });

		const [received] = receiver.received;
		expect(received.headers['x-webhook-test']).toBe('true');
		expect(received.body.type).toBe('customer.created');
		expect(isSignedWith(received, endpoint.secret)).toBe(true);

		receiver.answerNext(500);
		const failing = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/test`, {
			event_type: 'shift.assigned',
		});
		expect(failing.body).toMatchObject({ ok: false, response_status: 500 });
		expect(receiver.received[1].body).toMatchObject({
			type: 'shift.assigned',
			data: { assignment: expect.any(Object) },
		});
		// test sends never count as endpoint failures
		expect((await getEndpoint(endpoint.id)).consecutive_failures).toBe(0);

		const unknownType = await liveApi('POST', `/webhook-endpoints/${endpoint.id}/test`, {
			event_type: 'member.exploded',
		});
		expectError(unknownType, 400, 'validation_failed');
	});
});

describe('deliveries list', () => {
	it('filters by endpoint, status and event type, newest first', async () => {
		const all = await createEndpoint(['*']);
		const members = await createEndpoint(['member.created']);
		receiver.answerNext(200, 200, 500);
		await createMember(fixture.sandbox);
		await settle();
		await createCustomer(fixture.sandbox);
		await settle();

		const list = async (query: string) => {
			const answer = await liveApi('GET', `/webhook-deliveries${query}`);
			expect(answer.status).toBe(200);
			expectList(answer.body, DELIVERY_SHAPE);
			return answer.body.data as Array<{ endpoint_id: string; event_type: string; status: string }>;
		};
		expect((await list('')).map((delivery) => delivery.event_type)).toEqual([
			'customer.created',
			'member.created',
			'member.created',
		]);
		expect(await list(`?endpoint_id=${members.id}`)).toEqual([
			expect.objectContaining({ endpoint_id: members.id }),
		]);
		expect(await list('?event_type=customer.created')).toEqual([
			expect.objectContaining({ endpoint_id: all.id, status: 'failed' }),
		]);
		expect(await list('?status=delivered')).toHaveLength(2);
		expect(await list('?limit=1')).toHaveLength(1);
		expect(await list(`?endpoint_id=${randomUUID()}`)).toEqual([]);
	});
});

describe('event catalog', () => {
	it('lists the types of the active modules with description and module_gate', async () => {
		const acme = await liveApi('GET', '/webhook-events');
		expect(acme.status).toBe(200);
		expect(acme.body).toMatchObject({ has_more: false, next_cursor: null });
		for (const entry of acme.body.data) {
			expectShape(entry, { type: 'string', description: 'string', module_gate: 'string' });
		}
		expect(acme.body.data.map((entry: { type: string }) => entry.type)).toEqual(
			MEMBERS_AND_CUSTOMERS_EVENT_TYPES,
		);
		const initech = await api(fixture.sandbox, 'wfm_live_initech_all', 'GET', '/webhook-events');
		expect(initech.body.data.map((entry: { module_gate: string }) => entry.module_gate)).toEqual(
			Array(5).fill('members'),
		);
	});
});

describe('control-interface events', () => {
	it(`emits every one of the ${SPEC_EVENT_TYPES.length} event types with an example payload to an endpoint subscribed to all`, async () => {
		const endpoint = await createEndpoint(['*']);
		for (const type of SPEC_EVENT_TYPES) {
			const emitted = await emitLiveEvent(type);
			expect(emitted.event).toMatchObject({
				type,
				mode: 'live',
				id: expect.stringMatching(/^evt_[0-9a-f]+$/),
			});
			expect(emitted.delivery_ids).toHaveLength(1);
			expect(typeof emitted.event.data.id).toBe('string');
		}
		await settle();
		expect(receiver.received.map((delivery) => delivery.body.type)).toEqual(SPEC_EVENT_TYPES);
		for (const delivery of receiver.received) {
			expect(isSignedWith(delivery, endpoint.secret)).toBe(true);
		}
	});

	it('uses the given data as is', async () => {
		await createEndpoint(['member.deleted']);
		const data = {
			id: randomUUID(),
			business_name: 'Gone Ltd',
			deleted_at: '2026-01-01T00:00:00+00:00',
		};
		await emitLiveEvent('member.deleted', data);
		await settle();
		expect(receiver.received[0].body.data).toEqual(data);
	});
});

describe('bursts', () => {
	it('keeps at most 16 attempts in flight and queues the rest', async () => {
		const held: http.ServerResponse[] = [];
		let open = 0;
		let peak = 0;
		let released = false;
		const slow = http.createServer((request, response) => {
			request.resume();
			open += 1;
			peak = Math.max(peak, open);
			response.on('finish', () => (open -= 1));
			if (released) response.end();
			else held.push(response);
		});
		const origin = await listenOnLoopback(slow);
		try {
			const url = `${origin}/burst`;
			await createEndpoint(['member.updated'], LIVE_KEY, url);
			for (let index = 0; index < 40; index++) {
				await emitLiveEvent('member.updated');
			}
			while (held.length < 16) await new Promise((resolve) => setImmediate(resolve));
			const { deliveries } = await control(fixture.sandbox, 'GET', '/deliveries');
			const counts = (status: string) =>
				deliveries.filter((delivery: { status: string }) => delivery.status === status).length;
			expect({ processing: counts('processing'), pending: counts('pending') }).toEqual({
				processing: 16,
				pending: 24,
			});

			released = true;
			for (const response of held.splice(0)) response.end();
			const settled = await settle();
			expect(settled.filter((delivery) => delivery.status === 'delivered')).toHaveLength(40);
			expect(peak).toBe(16);
		} finally {
			await closeServer(slow);
		}
	});
});
