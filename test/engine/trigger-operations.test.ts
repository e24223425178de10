/**
 * What operators do with a live integration, as n8n does it: a staging n8n running an import of a
 * production workflow (same workflow id, node ids and static data, its own WEBHOOK_URL), and
 * republishing a published workflow (n8n 2.8.4: `delete()`, then `checkExists()`/`create()`).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	HARNESS_REPUBLISH_GRACE_SECONDS,
	background,
	setRepublishGrace,
} from '../support/engine/harness';
import { jsonCopy, TriggerReceiver, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60] },
});

const EVENTS = ['member.created'];

async function activeTrigger(on: TriggerReceiver = receiver()): Promise<LiveTrigger> {
	const trigger = on.trigger({
		parameters: { events: EVENTS, options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Timesheet billing',
	});
	await trigger.activate();
	return trigger;
}

/** Lets the API's next retry fall due, and waits until it has been delivered. */
async function nextRetry(): Promise<void> {
	await fixture.control.advanceAndSettle(60);
}

function runNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map((items) =>
		String((items[0].json.data as IDataObject).business_name),
	);
}

describe('a staging n8n running an import of a production workflow', () => {
	let staging: TriggerReceiver;
	beforeAll(async () => {
		staging = await TriggerReceiver.start();
	});
	afterAll(async () => {
		await staging.close();
	});

	/** The same workflow in staging's n8n: same ids and static data, staging's WEBHOOK_URL. */
	function stagingCopy(production: LiveTrigger): LiveTrigger {
		return staging.trigger({
			...production.options,
			freshProcess: true,
			workflowId: production.workflow.id,
			nodeId: production.node.id,
			webhookId: production.node.webhookId,
			parameters: jsonCopy(production.node.parameters),
			staticData: jsonCopy(production.staticData),
		});
	}

	it("leaves production's endpoint alone on activation and deactivation: production keeps receiving", async () => {
		const production = await activeTrigger();
		const [productionEndpoint] = await fixture.control.endpoints();
		const copy = stagingCopy(production);

		await copy.activate();
		const endpoints = await fixture.control.endpoints();
		expect(endpoints.map((endpoint) => endpoint.url).sort()).toEqual(
			[production.webhookUrl(), copy.webhookUrl()].sort(),
		);
		expect(endpoints.find((endpoint) => endpoint.id === productionEndpoint.id)).toMatchObject({
			secret: productionEndpoint.secret,
			enabled: true,
		});
		await fixture.createMemberAndSettle('Approved while staging is up');

		await copy.deactivate();
		expect((await fixture.control.endpoints()).map((endpoint) => endpoint.id)).toEqual([
			productionEndpoint.id,
		]);
		await fixture.createMemberAndSettle('Approved after staging is down');

		expect(runNames(production)).toEqual([
			'Approved while staging is up',
			'Approved after staging is down',
		]);
		expect(runNames(copy)).toEqual(['Approved while staging is up']);
	});
});

describe('deactivation', () => {
	it('a deactivation deletes the endpoint once the grace period is over; static data keeps what a republish on another main adopts', async () => {
		const trigger = await activeTrigger();
		const nodeData = () => trigger.staticData[`node:${trigger.node.name}`] as IDataObject;
		await fixture.createMemberAndSettle('Before the deactivation');
		const before = jsonCopy(nodeData());
		expect(before).toHaveProperty('seenEnvelopes');

		await trigger.runWebhookMethod('delete');
		expect(nodeData()).toEqual(before);
		expect(await fixture.control.endpoints()).toHaveLength(1);

		await background().backgroundSettled('retirement');
		expect(await fixture.control.endpoints()).toEqual([]);
	});
});

describe('republishing (n8n 2.8.4: delete(), then checkExists()/create())', () => {
	afterEach(() => setRepublishGrace(HARNESS_REPUBLISH_GRACE_SECONDS));

	it('keeps the endpoint: a retry queued before and an event emitted in between each run once', async () => {
		setRepublishGrace(5);
		const trigger = await activeTrigger();
		const [before] = await fixture.control.endpoints();
		trigger.unavailableFor = 1;
		await fixture.createMemberAndSettle('Queued retry');
		expect(trigger.executions).toEqual([]);

		await trigger.runWebhookMethod('delete', 'update');
		await fixture.createMemberAndSettle('Emitted in between');
		await trigger.activate('update');
		await nextRetry();

		const endpoints = await fixture.control.endpoints();
		expect(endpoints.map((endpoint) => endpoint.id)).toEqual([before.id]);
		expect(runNames(trigger).sort()).toEqual(['Emitted in between', 'Queued retry']);
	});

	it('updates a changed event list in place, keeping what is queued', async () => {
		setRepublishGrace(5);
		const trigger = await activeTrigger();
		const [before] = await fixture.control.endpoints();
		trigger.unavailableFor = 1;
		await fixture.createMemberAndSettle('Queued across the edit');

		trigger.node.parameters.events = ['member.created', 'member.updated'];
		await trigger.republish();
		await nextRetry();

		const [after] = await fixture.control.endpoints();
		expect(after).toMatchObject({ id: before.id, events: ['member.created', 'member.updated'] });
		expect(runNames(trigger)).toEqual(['Queued across the edit']);
	});
});
