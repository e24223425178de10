/**
 * The deletion a deactivation leaves pending (retirement.ts) against an activation that follows
 * it: in another n8n main (multi-main runs `delete()` on the main that got the request, activation
 * on the leader), and in the same process while the deletion is under way.
 */
import type { IDataObject } from 'n8n-workflow';

import { DELETION_WINDOW_SECONDS } from '../../nodes/WorkforceManagementTrigger/registration/deletionWindow';
import {
	HARNESS_REPUBLISH_GRACE_SECONDS,
	SHIPPED_REPUBLISH_GRACE_SECONDS,
	background,
	setRepublishGrace,
	useLogRecorder,
} from '../support/engine/harness';
import { jsonCopy, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';

const { fixture, receiver } = useTriggerSandbox();
const logged = useLogRecorder();

const EVENTS = ['member.created'];

afterEach(() => setRepublishGrace(HARNESS_REPUBLISH_GRACE_SECONDS));

async function activeTrigger(): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: EVENTS, options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Shift reminders',
	});
}

function runNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map((items) =>
		String((items[0].json.data as IDataObject).business_name),
	);
}

/** One endpoint is left: the trigger's, enabled, named in its static data; a new event runs once there. */
async function expectOneEndpointThatRuns(trigger: LiveTrigger, memberName: string): Promise<void> {
	const endpoints = await fixture.control.endpoints();
	expect(endpoints.map((endpoint) => [endpoint.id, endpoint.url, endpoint.enabled])).toEqual([
		[trigger.nodeStaticData().endpointId, trigger.webhookUrl(), true],
	]);
	await fixture.createMemberAndSettle(memberName);
	expect(runNames(trigger)).toEqual([memberName]);
}

describe('multi-main: delete() on one main, activation on the leader', () => {
	// n8n saves static data after delete() (2.8.4's clearWebhooks), and the leader loads that
	it('adopts the same endpoint with its secret and memory: a queued retry runs once, a retry of an event that ran is ignored', async () => {
		// the leader's claim comes well before the deletion is due (less the clocks' margin, 3 s)
		setRepublishGrace(SHIPPED_REPUBLISH_GRACE_SECONDS);
		const first = await activeTrigger();
		const endpointId = first.nodeStaticData().endpointId as string;
		first.responseLostFor = 1;
		await fixture.createMemberAndSettle('Ran, its answer lost');
		first.unavailableFor = 1;
		await fixture.createMemberAndSettle('Queued retry');

		await first.runWebhookMethod('delete', 'update');
		const leader = receiver().restart(first, jsonCopy(first.staticData));
		await leader.activate('update');
		await fixture.control.advanceAndSettle(60);
		await background().backgroundSettled('retirement');

		expect(leader.nodeStaticData().endpointId).toBe(endpointId);
		expect((await fixture.control.endpoints()).map((endpoint) => endpoint.id)).toEqual([
			endpointId,
		]);
		expect(runNames(first)).toEqual(['Ran, its answer lost']);
		expect(runNames(leader)).toEqual(['Queued retry']);
		await fixture.createMemberAndSettle('After the republish');
		expect(runNames(leader)).toEqual(['Queued retry', 'After the republish']);
	});

	it('registers one endpoint of its own when its claim comes too near the deletion to hold, and an event runs once', async () => {
		// the deletion is due 2 s after delete(): within the clocks' margin (3 s) of an activation at once
		setRepublishGrace(2);
		const first = await activeTrigger();

		await first.runWebhookMethod('delete', 'update');
		const leader = receiver().restart(first, jsonCopy(first.staticData));
		await leader.activate('update');
		await background().backgroundSettled('retirement');

		await expectOneEndpointThatRuns(leader, 'After the grace period');
	});
});

describe('multi-main: the leader claims the endpoint as the deletion reads it', () => {
	it('keeps the leader an endpoint when its claim lands between the read and the DELETE of the deletion', async () => {
		setRepublishGrace(1);
		const first = await activeTrigger();
		const endpointId = first.nodeStaticData().endpointId as string;
		// the leader loads static data as it was before delete() (that save had not landed), so it adopts
		const leader = receiver().restart(first, jsonCopy(first.staticData));

		await first.runWebhookMethod('delete', 'update');
		// the deletion's read is done at once (it sees the mark) and answered 2 s later
		await fixture.control.lateAnswers(`/webhook-endpoints/${endpointId}`, 2);
		await fixture.control.faultsTaken();
		await leader.activate('update');
		await background().backgroundSettled('retirement');

		await expectOneEndpointThatRuns(leader, 'After the claim');
	});
});

describe('the deletion whose read is answered past its window', () => {
	useMovableDate();

	it('leaves the endpoint and says so; the next activation registers one endpoint', async () => {
		setRepublishGrace(1);
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId as string;

		await trigger.runWebhookMethod('delete');
		await fixture.control.lateAnswers(`/webhook-endpoints/${endpointId}`, 1);
		await fixture.control.faultsTaken();
		moveDate(DELETION_WINDOW_SECONDS + 2);
		await background().backgroundSettled('retirement');

		expect((await fixture.control.endpoints()).map((endpoint) => endpoint.id)).toEqual([
			endpointId,
		]);
		const warning = logged.find(
			(line) => line.level === 'warn' && line.message.includes(endpointId),
		);
		expect(warning?.message).toContain('is left in place');
		expect(warning?.message).toContain('The next activation of this workflow on this URL');

		await trigger.activate();
		await expectOneEndpointThatRuns(trigger, 'After the late deletion');
	});
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

		await expectOneEndpointThatRuns(trigger, 'After the slow deletion');
	});

	it('keeps one endpoint when the activation comes as the DELETE of the deletion waits out a 429', async () => {
		setRepublishGrace(1);
		const trigger = await activeTrigger();
		const endpointId = trigger.nodeStaticData().endpointId as string;
		const endpointPath = `/webhook-endpoints/${endpointId}`;

		await trigger.runWebhookMethod('delete');
		await fixture.control.lateAnswers(endpointPath, 1);
		await fixture.control.faultsTaken();
		// the next request to the endpoint is the deletion's DELETE: refused, sent again 3 s later
		await fixture.control.failRequests(endpointPath, 429, 1, 3);
		await fixture.control.faultsTaken();
		await trigger.activate();
		await background().backgroundSettled('retirement');

		await expectOneEndpointThatRuns(trigger, 'After the refused deletion');
	});
});
