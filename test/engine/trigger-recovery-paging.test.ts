/**
 * More events died than one page of the deliveries list holds (100): recovery follows the list's
 * `next_cursor` back over its look-back, so every dead event runs once, and n8n's log gives the
 * true total. Where the API gives `has_more` without a cursor (paging of this list is not
 * documented; the sandbox's `broken_page` fault plays such an API), the log says that more may
 * remain instead of claiming a total.
 */
import {
	HARNESS_REPUBLISH_GRACE_SECONDS,
	background,
	setRepublishGrace,
	useLogRecorder,
} from '../support/engine/harness';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';

const RETRY_DELAYS_SECONDS = [60, 60, 60];

// the endpoint is never auto-disabled here, so every event emitted during the outage is recorded
const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: RETRY_DELAYS_SECONDS, autoDisableAfter: 100_000 },
	rateLimit: { requests: 100_000, perSeconds: 60 },
});
const logged = useLogRecorder();

const NAMES = Array.from({ length: 150 }, (_, index) => `Outage ${index}`);

async function deadAfterAnOutage(): Promise<LiveTrigger> {
	const trigger = receiver().trigger({
		parameters: { events: ['member.created'], options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Payroll sync',
	});
	await trigger.activate();
	trigger.unavailableFor = Infinity;
	for (const name of NAMES) await fixture.api('POST', '/members', { business_name: name });
	await fixture.control.settleDeliveries();
	for (const seconds of RETRY_DELAYS_SECONDS) await fixture.control.advanceAndSettle(seconds);
	const dead = (await fixture.control.settleDeliveries()).filter(
		(delivery) => delivery.status === 'dead',
	);
	expect(dead).toHaveLength(NAMES.length);
	return trigger;
}

async function restartN8n(trigger: LiveTrigger): Promise<LiveTrigger> {
	const restarted = receiver().restart(trigger, trigger.staticData);
	await restarted.activate('init');
	await fixture.control.settleDeliveries();
	return restarted;
}

function recoveryLines(): string[] {
	return logged.map((line) => line.message).filter((message) => message.includes('redelivered'));
}

describe('150 events dead, more than one page of the deliveries list', () => {
	it('runs each once at the next start, and the log gives the true total', async () => {
		const trigger = await deadAfterAnOutage();

		const restarted = await restartN8n(trigger);
		const again = await restartN8n(restarted);

		expect(runsPerEvent([trigger, restarted, again])).toEqual(Array(NAMES.length).fill(1));
		expect(again.executions).toEqual([]);
		expect(recoveryLines()).toEqual([
			expect.stringMatching(/: 150 missed events redelivered, 0 skipped as already run\.$/),
		]);
	});

	it('with an API that pages no further, runs none twice and says more may remain', async () => {
		const trigger = await deadAfterAnOutage();
		await fixture.injectFault({
			kind: 'broken_page',
			variant: 'no_cursor',
			count: 10_000,
			path: '/webhook-deliveries',
		});

		const restarted = await restartN8n(trigger);
		const again = await restartN8n(restarted);

		const runs = runsPerEvent([trigger, restarted, again]);
		expect(runs.every((count) => count === 1)).toBe(true);
		// one page, less what shares the oldest timestamp read (it may continue unread)
		expect(runs.length).toBeGreaterThanOrEqual(99);
		const lines = recoveryLines();
		const claimed = lines.map((line) =>
			Number(/: (\d+) missed events? redelivered/.exec(line)?.[1] ?? 0),
		);
		expect(claimed.reduce((sum, count) => sum + count, 0)).toBe(runs.length);
		expect(lines).toContainEqual(
			expect.stringMatching(/gave no cursor to read them\): .*possibly more.* not redelivered/),
		);
	});
});

describe('republished while the recovery at start is reading the deliveries list', () => {
	afterEach(() => setRepublishGrace(HARNESS_REPUBLISH_GRACE_SECONDS));

	// the new activation comes within the grace period, as n8n's does (about 1 s after delete());
	// with several mains it runs on the leader, another process than the one delete() ran in
	it.each([
		['in the same process', (restarted: LiveTrigger) => restarted],
		[
			'on another main',
			(restarted: LiveTrigger) => receiver().restart(restarted, restarted.staticData),
		],
	])(
		'%s: runs each dead event once, and the republished trigger keeps the one endpoint',
		async (_where, republishedIn) => {
			setRepublishGrace(2);
			const trigger = await deadAfterAnOutage();
			// the recovery's first read of the list is answered 2 s late: the republish lands in it
			await fixture.control.lateAnswers('/webhook-deliveries', 2);

			const restarted = receiver().restart(trigger, trigger.staticData);
			await restarted.activate('init');
			await fixture.control.faultsTaken();
			await restarted.runWebhookMethod('delete', 'update');
			const republished = republishedIn(restarted);
			await republished.activate('update');
			await background().backgroundSettled('recovery');
			await background().backgroundSettled('retirement');
			await fixture.control.settleDeliveries();

			const triggers = [...new Set([trigger, restarted, republished])];
			expect(runsPerEvent(triggers)).toEqual(Array(NAMES.length).fill(1));
			const endpoints = await fixture.control.endpoints();
			expect(endpoints.map((endpoint) => [endpoint.id, endpoint.enabled])).toEqual([
				[republished.nodeStaticData().endpointId, true],
			]);
			await fixture.createMemberAndSettle('After the republish');
			expect(runsPerEvent(triggers)).toEqual(Array(NAMES.length + 1).fill(1));
		},
	);
});
