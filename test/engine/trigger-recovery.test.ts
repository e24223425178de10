/**
 * Events the API gave up on while n8n was down: its retries exhausted (and the endpoint
 * auto-disabled meanwhile), the deliveries are `dead`. At the next start the trigger redelivers
 * each such event once, judged from the API's records over the whole look-back, skips those it
 * already ran, and never fails activation over it. Only `Date` is moved where hours pass.
 */
import { useLogRecorder } from '../support/engine/harness';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';

const RETRY_DELAYS_SECONDS = [60, 60, 60];

const { fixture, receiver } = useTriggerSandbox({
	// 3 events failing twice disable the endpoint; their next retries die ("Endpoint is disabled")
	webhooks: { retryDelaysSeconds: RETRY_DELAYS_SECONDS, autoDisableAfter: 6 },
});

const logged = useLogRecorder();
useMovableDate();

const HOUR = 3600;

const WORKFLOW_NAME = 'Payroll sync';

function newTrigger(options: { recoverMissedEvents?: boolean } = {}): LiveTrigger {
	return receiver().trigger({
		parameters: { events: ['member.created'], options },
		credentials: fixture.credentials(),
		workflowName: WORKFLOW_NAME,
	});
}

async function activeTrigger(
	options: { recoverMissedEvents?: boolean } = {},
): Promise<LiveTrigger> {
	const trigger = newTrigger(options);
	await trigger.activate();
	return trigger;
}

/** Every retry falls due and fails, until the API marks each delivery dead. */
async function untilTheApiGivesUp(): Promise<void> {
	for (const seconds of RETRY_DELAYS_SECONDS) {
		await fixture.control.advanceClock(seconds);
		await fixture.control.settleDeliveries();
	}
	const statuses = (await fixture.control.settleDeliveries()).map((delivery) => delivery.status);
	expect(new Set(statuses)).toEqual(new Set(['dead']));
}

/** n8n starts again: same workflow and static data, a new process, activation in mode `init`. */
async function restartN8n(trigger: LiveTrigger): Promise<LiveTrigger> {
	const restarted = receiver().restart(trigger, trigger.staticData);
	await restarted.activate('init');
	await fixture.control.settleDeliveries();
	return restarted;
}

/** Time passes for the API and for n8n alike. */
async function passTime(seconds: number): Promise<void> {
	moveDate(seconds);
	await fixture.control.advanceClock(0);
	await fixture.control.settleDeliveries();
}

async function emitMembers(names: string[]): Promise<void> {
	for (const name of names) await fixture.api('POST', '/members', { business_name: name });
	await fixture.control.settleDeliveries();
}

function businessNames(trigger: LiveTrigger): string[] {
	return trigger.executions.map(([item]) =>
		String((item.json.data as { business_name: string }).business_name),
	);
}

async function apiCalls(path: string): Promise<string[]> {
	return (await fixture.requests())
		.filter((request) => request.path.includes(path))
		.map((request) => `${request.method} ${request.path}`);
}

function recoveryLog(trigger: LiveTrigger, endpointId: string, summary: string) {
	return {
		level: 'info',
		message: `Workforce Management Trigger "${trigger.node.name}" in workflow "${WORKFLOW_NAME}" (${trigger.workflow.id}): recovering events the API gave up delivering to endpoint ${endpointId} (retries exhausted or endpoint disabled): ${summary}.`,
		meta: { workflowId: trigger.workflow.id, node: trigger.node.name },
	};
}

const NAMES = ['Friday Ltd', 'Saturday Ltd', 'Sunday Ltd'];

describe('events that died while n8n was down', () => {
	it('runs each of them exactly once after the restart, and not again at the next one', async () => {
		const trigger = await activeTrigger();
		trigger.unavailableFor = Infinity;
		for (const name of NAMES) await fixture.createMemberAndSettle(name);
		await untilTheApiGivesUp();
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.enabled).toBe(false);

		const restarted = await restartN8n(trigger);

		expect(trigger.executions).toEqual([]);
		expect(businessNames(restarted).sort()).toEqual([...NAMES].sort());
		expect(logged).toContainEqual(
			recoveryLog(restarted, endpoint.id, '3 missed events redelivered, 0 skipped as already run'),
		);

		const again = await restartN8n(restarted);
		expect(again.executions).toEqual([]);
		const redeliveries = await apiCalls('/redeliver');
		expect(redeliveries).toHaveLength(3);
		expect(new Set(redeliveries).size).toBe(3);
	});

	it('does not recover them again at a start 31 hours and 100 events later', async () => {
		const trigger = await activeTrigger();
		trigger.unavailableFor = Infinity;
		await emitMembers(NAMES);
		await untilTheApiGivesUp();
		const restarted = await restartN8n(trigger);
		expect(businessNames(restarted).sort()).toEqual([...NAMES].sort());

		await passTime(31 * HOUR);
		await emitMembers(Array.from({ length: 100 }, (_, index) => `Later ${index}`));
		const again = await restartN8n(restarted);

		expect(again.executions).toEqual([]);
		expect(runsPerEvent([trigger, restarted, again])).toEqual(Array(103).fill(1));
		expect(await apiCalls('/redeliver')).toHaveLength(3);
	});

	it('does not run an event that ran but whose answer was lost, at this start or one 31 hours later', async () => {
		const trigger = await activeTrigger();
		trigger.responseLostFor = 1;
		await fixture.createMemberAndSettle('Ran, answer lost');
		trigger.unavailableFor = Infinity;
		await fixture.createMemberAndSettle('Never arrived');
		await untilTheApiGivesUp();
		// newest first
		const [neverArrived, ranAnswerLost] = await fixture.control.settleDeliveries();

		const restarted = await restartN8n(trigger);

		expect(businessNames(trigger)).toEqual(['Ran, answer lost']);
		expect(businessNames(restarted)).toEqual(['Never arrived']);
		// the event that ran is redelivered once so that the API records it delivered; it is ignored
		expect(await apiCalls('/redeliver')).toEqual([
			`POST /api/v1/webhook-deliveries/${neverArrived.id}/redeliver`,
			`POST /api/v1/webhook-deliveries/${ranAnswerLost.id}/redeliver`,
		]);
		expect(restarted.received.map((request) => request.responseBody)).toContain(
			JSON.stringify({ received: true, ignored: 'duplicate' }),
		);
		expect(logged).toContainEqual(
			recoveryLog(
				restarted,
				neverArrived.endpoint_id,
				'1 missed event redelivered, 1 skipped as already run',
			),
		);

		await passTime(31 * HOUR);
		await fixture.createMemberAndSettle('A day later');
		const again = await restartN8n(restarted);
		expect(again.executions).toEqual([]);
		expect(businessNames(restarted)).toEqual(['Never arrived', 'A day later']);
	});
});

describe('two recoveries at once', () => {
	it('two n8n processes starting together on one workflow redeliver each dead event once, and it runs once', async () => {
		const trigger = await activeTrigger();
		trigger.unavailableFor = Infinity;
		await emitMembers(NAMES);
		await untilTheApiGivesUp();
		await fixture.clearRequests();

		const mains = receiver().webhookProcesses(trigger, 2);
		await Promise.all(mains.map(async (main) => await main.activate('init')));
		await fixture.control.settleDeliveries();

		const redeliveries = await apiCalls('/redeliver');
		expect(redeliveries).toHaveLength(3);
		expect(new Set(redeliveries).size).toBe(3);
		expect(runsPerEvent(mains)).toEqual([1, 1, 1]);
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.description).toBe(`${WORKFLOW_NAME} (n8n workflow ${trigger.workflow.id})`);
	});
});

describe('"Recover Missed Events"', () => {
	it('turned off, asks the API for nothing and redelivers nothing', async () => {
		const trigger = await activeTrigger({ recoverMissedEvents: false });
		trigger.unavailableFor = Infinity;
		await fixture.createMemberAndSettle('Lost on purpose');
		await untilTheApiGivesUp();
		await fixture.clearRequests();

		const restarted = await restartN8n(trigger);

		expect(restarted.executions).toEqual([]);
		expect(await apiCalls('/webhook-deliveries')).toEqual([]);
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.enabled).toBe(true);
	});
});

describe('a deliveries list that fails', () => {
	it('does not fail activation: it is logged, the endpoint re-enabled, later events delivered', async () => {
		const trigger = await activeTrigger();
		trigger.unavailableFor = Infinity;
		await fixture.createMemberAndSettle('Missed');
		await untilTheApiGivesUp();
		await fixture.injectFault({ status: 500, count: 1, path: '/webhook-deliveries' });

		const restarted = receiver().restart(trigger, trigger.staticData);
		expect(await restarted.runWebhookMethod('checkExists', 'init')).toBe(true);
		await restarted.background.backgroundSettled('recovery');

		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.enabled).toBe(true);
		expect(logged).toContainEqual({
			level: 'warn',
			message: expect.stringContaining(
				`"${WORKFLOW_NAME}" (${restarted.workflow.id}): could not list the deliveries of endpoint ${endpoint.id} to recover missed events: `,
			),
			meta: { workflowId: restarted.workflow.id, node: restarted.node.name },
		});
		await fixture.createMemberAndSettle('After the restart');
		expect(businessNames(restarted)).toEqual(['After the restart']);
	});
});
