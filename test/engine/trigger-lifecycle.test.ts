/**
 * Registration lifecycle of the Workforce Management Trigger inside n8n's engine (HookContext,
 * static data kept in the workflow), against the sandbox API: activation, reconciliation after
 * restarts and lost static data, test registrations, deactivation.
 */
import { DEFAULT_CONFIG, startSandbox } from '../../sandbox';
import { MEMBERS_AND_CUSTOMERS_EVENT_TYPES, SPEC_EVENT_TYPES } from '../support/spec-event-types';
import { runLoadOptions, useLogRecorder } from '../support/engine/harness';
import { TRIGGER_NODE_TYPE } from '../../harness/constants';
import { TEST_KEY } from '../../harness/constants';
import { openNodeSecret } from '../support/sealed-secret';
import { useTriggerSandbox } from '../support/engine/trigger-receiver';
import { LiveTrigger } from '../support/engine/trigger-receiver';

const ALL_MODULES_KEY = 'wfm_live_umbrella_all';
const logged = useLogRecorder();

const { fixture, receiver, testMode } = useTriggerSandbox({
	webhooks: { autoDisableAfter: 2, retryDelaysSeconds: [60, 60, 60] },
	organizations: [
		...DEFAULT_CONFIG.organizations,
		{
			name: 'Umbrella Staffing',
			slug: 'umbrella',
			status: 'active',
			modules: ['members', 'customers', 'shifts', 'bookings', 'timesheets', 'invoices'],
			keys: [{ key: ALL_MODULES_KEY, mode: 'live', scopes: ['webhooks:read', 'webhooks:write'] }],
		},
	],
});

const MEMBER_EVENTS = ['member.created', 'member.verified'];

const WORKFLOW_NAME = 'Payroll sync';

function newTrigger(events: string[] = MEMBER_EVENTS, apiKey?: string): LiveTrigger {
	return receiver().trigger({
		parameters: { events },
		credentials: fixture.credentials(apiKey),
		workflowName: WORKFLOW_NAME,
	});
}

async function activeTrigger(events: string[] = MEMBER_EVENTS): Promise<LiveTrigger> {
	const trigger = newTrigger(events);
	await trigger.activate();
	return trigger;
}

async function apiCalls(): Promise<string[]> {
	return (await fixture.requests()).map((request) => `${request.method} ${request.path}`);
}

describe('event list', () => {
	async function eventOptions(apiKey: string) {
		return await runLoadOptions('getEndpointEventTypes', {
			type: TRIGGER_NODE_TYPE,
			parameters: { events: [] },
			credentials: fixture.credentials(apiKey),
		});
	}

	it('offers All Events first, then the catalog of the active modules with descriptions', async () => {
		const options = await eventOptions('wfm_live_acme_all');

		expect(options[0]).toEqual({
			name: 'All Events',
			value: '*',
			description: 'Every event type, including future ones',
		});
		expect(options.slice(1).map((option) => option.value)).toEqual(
			MEMBERS_AND_CUSTOMERS_EVENT_TYPES,
		);
		expect(options).toContainEqual({
			name: 'Site Updated',
			value: 'customer_location.updated',
			description:
				'customer_location.updated: A site changed, including activation and deactivation',
		});
		expect(options).toContainEqual(
			expect.objectContaining({ name: 'Member Created', value: 'member.created' }),
		);
	});

	it(`offers all ${SPEC_EVENT_TYPES.length} event types of the specification when every module is active`, async () => {
		const options = await eventOptions(ALL_MODULES_KEY);
		const values = options.map((option) => option.value);
		expect(values).toHaveLength(SPEC_EVENT_TYPES.length + 1);
		expect(values).toEqual(expect.arrayContaining(['*', ...SPEC_EVENT_TYPES]));
	});
});

describe('activation', () => {
	it('registers exactly one endpoint with the webhook URL, the events and the workflow in the description', async () => {
		const trigger = await activeTrigger(['member.verified', 'member.created', 'member.created']);

		const endpoints = await fixture.control.endpoints();
		expect(endpoints).toHaveLength(1);
		const [endpoint] = endpoints;
		expect(endpoint.url).toBe(trigger.webhookUrl());
		expect(endpoint.url).toMatch(new RegExp(`/webhook/${trigger.node.webhookId}/webhook$`));
		expect(endpoint.events).toEqual(['member.created', 'member.verified']);
		expect(endpoint.enabled).toBe(true);
		expect(endpoint.description).toBe(`${WORKFLOW_NAME} (n8n workflow ${trigger.workflow.id})`);
		expect(trigger.nodeStaticData()).toMatchObject({
			endpointId: endpoint.id,
			secret: expect.stringMatching(/^wfmseal\.v1\./),
			url: endpoint.url,
			events: ['member.created', 'member.verified'],
		});
		expect(openNodeSecret(trigger.nodeStaticData())).toBe(endpoint.secret);
		expect(JSON.stringify(trigger.staticData)).not.toContain('whsec_');
	});

	it('keeps a registered endpoint on the next check (an n8n restart) without writing', async () => {
		const trigger = await activeTrigger();
		await fixture.clearRequests();

		const restarted = receiver().restart(trigger, trigger.staticData);
		expect(await restarted.runWebhookMethod('checkExists')).toBe(true);

		expect(await fixture.endpointCalls()).toEqual([
			`GET /api/v1/webhook-endpoints/${trigger.nodeStaticData().endpointId}`,
		]);
		expect((await apiCalls()).filter((call) => !call.startsWith('GET '))).toEqual([]);
		expect(await fixture.control.endpoints()).toHaveLength(1);
	});

	it('subscribes to everything with All Events, even when other events are picked too', async () => {
		await activeTrigger(['member.created', '*']);
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.events).toEqual(['*']);
	});

	it('refuses an empty event list, naming the field, before any request', async () => {
		const trigger = newTrigger([]);
		const activation = trigger.activate();
		await expect(activation).rejects.toThrow('Choose at least one event in "Event Names or IDs"');
		await expect(activation).rejects.toMatchObject({
			description: 'Pick the event types that should start this workflow, or All Events.',
		});
		expect(await apiCalls()).toEqual([]);
	});

	it.each([-5, 0])(
		'refuses a signature tolerance of %d seconds, naming the field',
		async (signatureToleranceSeconds) => {
			const trigger = receiver().trigger({
				parameters: { events: MEMBER_EVENTS, options: { signatureToleranceSeconds } },
				credentials: fixture.credentials(),
			});
			const activation = trigger.activate();
			await expect(activation).rejects.toThrow(
				`"Signature Tolerance (Seconds)" must be a positive number of seconds, not ${signatureToleranceSeconds}`,
			);
			await expect(activation).rejects.toMatchObject({
				description: 'The API recommends 300 seconds.',
			});
			expect(await apiCalls()).toEqual([]);
		},
	);

	it('registers a test-mode key in the sandbox organization', async () => {
		const trigger = newTrigger(MEMBER_EVENTS, TEST_KEY);
		await trigger.activate();

		const testEndpoints = await testMode().endpoints();
		expect(testEndpoints).toHaveLength(1);
		expect(testEndpoints[0].url).toBe(trigger.webhookUrl());
		expect(await fixture.control.endpoints()).toEqual([]);
	});

	it('explains WEBHOOK_URL when the API refuses a URL that is not HTTPS', async () => {
		const strictSandbox = await startSandbox({ port: 0 });
		try {
			const trigger = receiver().trigger({
				parameters: { events: MEMBER_EVENTS },
				credentials: { apiKey: 'wfm_live_acme_all', baseUrl: strictSandbox.baseUrl },
			});
			const activation = trigger.activate();
			await expect(activation).rejects.toThrow('only delivers to HTTPS addresses');
			await expect(activation).rejects.toMatchObject({
				description: expect.stringContaining('WEBHOOK_URL'),
			});
			expect(trigger.nodeStaticData()).toEqual({});
		} finally {
			await strictSandbox.close();
		}
	});

	it.each([
		{
			label: 'a key without webhooks:write (403), n8n on http://',
			apiKey: 'wfm_live_acme_readonly',
			events: MEMBER_EVENTS,
			refusal: /webhooks:write/,
		},
		{
			label: 'an event the API does not know (400), n8n on https://',
			webhookBaseUrl: 'https://n8n.example.com',
			events: ['member.exploded'],
			refusal: /events\[0\]: must be one of/,
		},
	])('gives the API’s own refusal, not the HTTPS advice, for $label', async (example) => {
		const options = {
			parameters: { events: example.events },
			credentials: fixture.credentials(example.apiKey),
		};
		const trigger = example.webhookBaseUrl
			? new LiveTrigger({ ...options, webhookBaseUrl: example.webhookBaseUrl })
			: receiver().trigger(options);
		const activation = trigger.activate();
		await expect(activation).rejects.toThrow(example.refusal);
		await expect(activation).rejects.not.toThrow('HTTPS');
		expect(trigger.nodeStaticData()).toEqual({});
	});
});

describe('reconciliation', () => {
	it('re-enables an endpoint the API auto-disabled after failed deliveries and keeps it', async () => {
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId;
		trigger.unavailableFor = 2;
		await fixture.api('POST', '/members', { business_name: 'First' });
		await fixture.api('POST', '/members', { business_name: 'Second' });
		await fixture.control.settleDeliveries();
		const [disabled] = await fixture.control.endpoints();
		expect(disabled.enabled).toBe(false);
		expect(disabled.disabled_reason).toEqual(expect.any(String));

		expect(await trigger.runWebhookMethod('checkExists')).toBe(true);

		const [reenabled] = await fixture.control.endpoints();
		expect(reenabled).toMatchObject({ id: endpointId, enabled: true, disabled_at: null });
		await fixture.createMemberAndSettle('Third');
		expect(trigger.executions.map((items) => items[0].json.data)).toEqual([
			expect.objectContaining({ business_name: 'Third' }),
		]);
	});

	it('updates the event list in place: the same endpoint, its secret and its queued retries', async () => {
		const trigger = await activeTrigger(['member.created']);
		const [before] = await fixture.control.endpoints();

		trigger.node.parameters.events = ['customer.created', 'customer.updated'];
		await trigger.activate();

		const endpoints = await fixture.control.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0]).toMatchObject({ id: before.id, secret: before.secret });
		expect(endpoints[0].events).toEqual(['customer.created', 'customer.updated']);
		expect(trigger.nodeStaticData()).toMatchObject({
			endpointId: before.id,
			events: ['customer.created', 'customer.updated'],
		});
		expect(openNodeSecret(trigger.nodeStaticData())).toBe(before.secret);
	});

	it('leaves an endpoint at its old URL alone after n8n’s webhook URL changed, names it in the log and registers anew', async () => {
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId as string;
		const oldUrl = 'http://127.0.0.1:1/webhook/elsewhere/webhook';
		await fixture.api('PATCH', `/webhook-endpoints/${endpointId}`, { url: oldUrl });

		await trigger.activate();

		const endpoints = await fixture.control.endpoints();
		expect(endpoints.map((endpoint) => endpoint.url).sort()).toEqual(
			[oldUrl, trigger.webhookUrl()].sort(),
		);
		expect(trigger.nodeStaticData().endpointId).not.toBe(endpointId);
		const warning = logged.find((line) =>
			line.message.startsWith(`Webhook endpoint ${endpointId} `),
		);
		expect(warning).toMatchObject({ level: 'warn' });
		expect(warning?.message).toContain(`delivers to ${oldUrl}, not to this trigger's`);
		expect(warning?.message).toContain('Webhook Endpoint → Delete');
	});

	it('creates a new endpoint when the stored one was deleted elsewhere', async () => {
		const trigger = await activeTrigger();
		await fixture.api('DELETE', `/webhook-endpoints/${trigger.nodeStaticData().endpointId}`);

		await trigger.activate();

		const endpoints = await fixture.control.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(trigger.nodeStaticData().endpointId).toBe(endpoints[0].id);
	});

	it('replaces its own orphan after static data was lost, leaving other endpoints alone', async () => {
		const trigger = await activeTrigger();
		const orphanId = trigger.nodeStaticData().endpointId;
		const other = await activeTrigger();
		const byHand = await fixture.api<{ id: string }>('POST', '/webhook-endpoints', {
			url: trigger.webhookUrl(),
			events: ['*'],
			description: 'Made by hand for the same URL',
		});

		const restarted = receiver().restart(trigger, {});
		await restarted.activate();

		const endpoints = await fixture.control.endpoints();
		const ids = endpoints.map((endpoint) => endpoint.id);
		expect(ids).not.toContain(orphanId);
		expect(ids).toEqual(
			expect.arrayContaining([
				restarted.nodeStaticData().endpointId,
				other.nodeStaticData().endpointId,
				byHand.id,
			]),
		);
		expect(endpoints).toHaveLength(3);
	});

	it('finds an endpoint described the way version 0.1.0 did after static data was lost', async () => {
		const trigger = newTrigger();
		const old = await fixture.api<{ id: string }>('POST', '/webhook-endpoints', {
			url: trigger.webhookUrl(),
			events: MEMBER_EVENTS,
			description: `n8n workflow ${trigger.workflow.id} · Workforce Management Trigger`,
		});

		await trigger.activate();

		const endpoints = await fixture.control.endpoints();
		expect(endpoints.map((endpoint) => endpoint.id)).toEqual([trigger.nodeStaticData().endpointId]);
		expect(endpoints[0].id).not.toBe(old.id);
		expect(endpoints[0].description).toBe(`${WORKFLOW_NAME} (n8n workflow ${trigger.workflow.id})`);
	});

	it('re-keys its endpoint with roll-secret when only the secret was lost', async () => {
		const trigger = await activeTrigger();
		const { endpointId, secret } = trigger.nodeStaticData();
		const withoutSecret = trigger.withNodeStaticData((nodeData) => ({
			...nodeData,
			secret: undefined,
		}));

		const restarted = receiver().restart(trigger, withoutSecret);
		expect(await restarted.runWebhookMethod('checkExists')).toBe(true);

		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.id).toBe(endpointId);
		expect(endpoint.secret).not.toBe(secret);
		expect(openNodeSecret(restarted.nodeStaticData())).toBe(endpoint.secret);
		expect(JSON.stringify(restarted.staticData)).not.toContain('whsec_');
	});

	it('re-keys when someone else rolled the secret, so verification survives the 24-hour overlap', async () => {
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId as string;
		const rolledElsewhere = await fixture.api<{ secret: string }>(
			'POST',
			`/webhook-endpoints/${endpointId}/roll-secret`,
		);

		expect(await trigger.runWebhookMethod('checkExists')).toBe(true);

		const [endpoint] = await fixture.control.endpoints();
		expect(openNodeSecret(trigger.nodeStaticData())).toBe(endpoint.secret);
		expect(endpoint.secret).not.toBe(rolledElsewhere.secret);
		expect(JSON.stringify(trigger.staticData)).not.toContain('whsec_');
	});
});

describe('the signing secret at rest', () => {
	const OTHER_KEY_SAME_ORGANIZATION = 'wfm_live_acme_webhooks';

	it('re-keys through roll-secret when the credential changed, and seals the new secret under it', async () => {
		const trigger = await activeTrigger();
		const { endpointId, secret: sealedBefore } = trigger.nodeStaticData();
		const [before] = await fixture.control.endpoints();

		const withOtherKey = receiver().trigger({
			...trigger.options,
			credentials: fixture.credentials(OTHER_KEY_SAME_ORGANIZATION),
			workflowId: trigger.workflow.id,
			webhookId: trigger.node.webhookId,
			parameters: trigger.node.parameters,
			staticData: JSON.parse(JSON.stringify(trigger.staticData)),
		});
		await fixture.clearRequests();
		await withOtherKey.activate();

		expect(await fixture.endpointCalls()).toEqual([
			`GET /api/v1/webhook-endpoints/${endpointId}`,
			`POST /api/v1/webhook-endpoints/${endpointId}/roll-secret`,
		]);
		const [after] = await fixture.control.endpoints();
		expect(after.id).toBe(endpointId);
		expect(after.secret).not.toBe(before.secret);
		const stored = withOtherKey.nodeStaticData();
		expect(stored.secret).not.toBe(sealedBefore);
		expect(openNodeSecret(stored, OTHER_KEY_SAME_ORGANIZATION)).toBe(after.secret);
		expect(openNodeSecret(stored)).toBeUndefined();

		await fixture.createMemberAndSettle('After the key change');
		expect(withOtherKey.executions).toHaveLength(1);
	});

	it('never trusts a secret stored in the clear (0.x, or written by hand): activation rolls it and seals the new one', async () => {
		const trigger = await activeTrigger();
		const [endpoint] = await fixture.control.endpoints();
		const plain = trigger.withNodeStaticData((nodeData) => ({
			...nodeData,
			secret: endpoint.secret,
		}));

		const restarted = receiver().restart(trigger, plain);
		await fixture.clearRequests();
		await restarted.activate();

		expect(await fixture.endpointCalls()).toEqual([
			`GET /api/v1/webhook-endpoints/${endpoint.id}`,
			`POST /api/v1/webhook-endpoints/${endpoint.id}/roll-secret`,
		]);
		const [rolled] = await fixture.control.endpoints();
		expect(rolled.secret).not.toBe(endpoint.secret);
		expect(JSON.stringify(restarted.staticData)).not.toContain('whsec_');
		expect(openNodeSecret(restarted.nodeStaticData())).toBe(rolled.secret);

		await fixture.createMemberAndSettle('After activation');
		expect(restarted.executions).toHaveLength(1);
	});
});

describe('deactivation', () => {
	it('deletes the endpoint; the next activation registers a new one, its duplicate memory empty', async () => {
		const trigger = await activeTrigger();
		const { endpointId } = trigger.nodeStaticData();
		await fixture.createMemberAndSettle('Before the deactivation');
		expect(trigger.nodeStaticData()).toHaveProperty('seenEnvelopes');

		expect(await trigger.deactivate()).toBe(true);
		expect(await fixture.control.endpoints()).toEqual([]);

		await trigger.activate();
		const endpoints = await fixture.control.endpoints();
		expect(endpoints).toHaveLength(1);
		expect(endpoints[0].id).not.toBe(endpointId);
		expect(trigger.nodeStaticData().endpointId).toBe(endpoints[0].id);
		expect(trigger.nodeStaticData()).not.toHaveProperty('seenEnvelopes');
	});

	it('counts an endpoint that is already gone as deleted', async () => {
		const trigger = await activeTrigger();
		await fixture.api('DELETE', `/webhook-endpoints/${trigger.nodeStaticData().endpointId}`);

		expect(await trigger.deactivate()).toBe(true);
		expect(logged.filter((line) => line.level === 'error')).toEqual([]);
	});

	it('leaves no endpoint behind after activations, restarts, edits and lost static data', async () => {
		const trigger = await activeTrigger();
		const restarted = receiver().restart(trigger, {});
		await restarted.activate();
		restarted.node.parameters.events = ['customer.created'];
		await restarted.activate();
		const afterRestart = receiver().restart(restarted, restarted.staticData);
		await afterRestart.activate();
		expect(await fixture.control.endpoints()).toHaveLength(1);

		await receiver().restart(afterRestart, {}).deactivate();

		expect(await fixture.control.endpoints()).toEqual([]);
	});
});

describe('"Listen for test event"', () => {
	it('registers the /webhook-test/ URL beside the production one, each verifying its own deliveries, and removes only it', async () => {
		const production = await activeTrigger();
		const listener = receiver().testListener(production);

		await listener.activate();
		const registered = await fixture.control.endpoints();
		expect(registered.map((endpoint) => endpoint.url).sort()).toEqual(
			[production.webhookUrl(), listener.webhookUrl()].sort(),
		);
		expect(listener.webhookUrl()).toContain(`/webhook-test/${production.node.webhookId}/`);

		await fixture.createMemberAndSettle('Heard Twice Ltd');
		expect(production.executions).toHaveLength(1);
		expect(listener.executions).toHaveLength(1);
		expect(listener.executions[0][0].json.id).toBe(production.executions[0][0].json.id);

		await listener.deactivate();
		const remaining = await fixture.control.endpoints();
		expect(remaining.map((endpoint) => endpoint.url)).toEqual([production.webhookUrl()]);
	});
});
