/**
 * The deletion a deactivation leaves pending (retirement.ts) against an activation that follows
 * it: in another n8n main (multi-main runs `delete()` on the main that got the request, activation
 * on the leader), and in the same process while the deletion is under way.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	HARNESS_REPUBLISH_GRACE_SECONDS,
	background,
	setRepublishGrace,
} from '../support/engine/harness';
import { useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const { fixture, receiver } = useTriggerSandbox();

const EVENTS = ['member.created'];

afterEach(() => setRepublishGrace(HARNESS_REPUBLISH_GRACE_SECONDS));

async function activeTrigger(): Promise<LiveTrigger> {
	const trigger = receiver().trigger({
		parameters: { events: EVENTS, options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Shift reminders',
	});
	await trigger.activate();
	return trigger;
}

function jsonCopy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

function runNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map((items) =>
		String((items[0].json.data as IDataObject).business_name),
	);
}

describe('multi-main: delete() on one main, activation on the leader', () => {
	// What the leader loads of static data: as the first main saved it after delete() (cleared),
	// or as it was before (that save had not landed yet).
	it.each([
		['cleared by delete()', (_before: IDataObject, after: IDataObject) => after],
		['from before delete()', (before: IDataObject) => before],
	])(
		'the leader keeps an endpoint after the grace period, static data %s, and an event runs once',
		async (_name, leaderStaticData) => {
			setRepublishGrace(2);
			const first = await activeTrigger();
			const before = jsonCopy(first.staticData);

			await first.runWebhookMethod('delete', 'update');
			const leader = receiver().restart(
				first,
				leaderStaticData(before, jsonCopy(first.staticData)),
			);
			await leader.activate('update');
			await background().backgroundSettled('retirement');

			const endpoints = await fixture.control.endpoints();
			expect(endpoints.map((endpoint) => [endpoint.url, endpoint.enabled])).toEqual([
				[leader.webhookUrl(), true],
			]);
			expect(endpoints[0].id).toBe(leader.nodeStaticData().endpointId);
			await fixture.createMemberAndSettle('After the grace period');
			expect(runNames(leader)).toEqual(['After the grace period']);
		},
	);
});

describe('one process: activation while the pending deletion is under way', () => {
	it('keeps one endpoint when the activation comes as the deletion waits on a slow API', async () => {
		setRepublishGrace(1);
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId as string;

		await trigger.runWebhookMethod('delete');
		await fixture.control.lateAnswers(`/webhook-endpoints/${endpointId}`, 2);
		await fixture.control.faultsTaken();
		await trigger.activate();
		await background().backgroundSettled('retirement');

		const endpoints = await fixture.control.endpoints();
		expect(endpoints.map((endpoint) => endpoint.id)).toEqual([trigger.nodeStaticData().endpointId]);
		await fixture.createMemberAndSettle('After the slow deletion');
		expect(runNames(trigger)).toEqual(['After the slow deletion']);
	});
});
