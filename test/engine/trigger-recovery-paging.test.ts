/**
 * More events died than one page of the deliveries list holds (100): recovery follows the list's
 * `next_cursor` back over its look-back, so every dead event runs once, and n8n's log gives the
 * true total. Where the API gives `has_more` without a cursor (paging of this list is not
 * documented; the sandbox's `broken_page` fault plays such an API), the log says that more may
 * remain instead of claiming a total. Where the paging breaks otherwise, or the recovery's one
 * budget of pages and time for its two reads of the list runs out, the read ends where it got.
 */
import { LEDGER_READ_BUDGET } from '../../nodes/shared/webhooks';
import { ACTION_NODE_TYPE } from '../../harness/constants';
import {
	HARNESS_REPUBLISH_GRACE_SECONDS,
	SHIPPED_REPUBLISH_GRACE_SECONDS,
	background,
	runNode,
	setRepublishGrace,
	useLogRecorder,
} from '../support/engine/harness';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';

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

function unreadWarnings(): string[] {
	return logged
		.filter((line) => line.level === 'warn' && line.message.includes('not redelivered'))
		.map((line) => line.message);
}

/** The requests for a page of the deliveries list (not the redeliveries under its path). */
async function deliveryListReads(): Promise<number> {
	const requests = await fixture.requests();
	return requests.filter(
		(request) => request.method === 'GET' && request.path === '/api/v1/webhook-deliveries',
	).length;
}

/** The number in `N dead event(s) seen` of an unread-shortfall warning. */
function unreadIn(warning: string): number {
	return Number(/: (\d+) dead events? seen/.exec(warning)?.[1]);
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

	// the new activation comes within the grace period, as n8n's does (about 1 s after delete()),
	// and before the deletion's time less the clocks' margin (3 s), so another main may claim it;
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
			setRepublishGrace(SHIPPED_REPUBLISH_GRACE_SECONDS);
			const trigger = await deadAfterAnOutage();
			// the recovery's first read of the list is answered 2 s late: the republish lands in it
			await fixture.control.lateAnswers('/webhook-deliveries', 2);

			const restarted = receiver().restart(trigger, trigger.staticData);
			await restarted.activate('init');
			const { endpointId } = restarted.nodeStaticData();
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
				[endpointId, true],
			]);
			expect(republished.nodeStaticData().endpointId).toBe(endpointId);
			await fixture.createMemberAndSettle('After the republish');
			expect(runsPerEvent(triggers)).toEqual(Array(NAMES.length + 1).fill(1));
		},
	);
});

describe('a deliveries list whose paging breaks during recovery', () => {
	it('stops at a cursor handed out twice: 5 reads of the list, the events it could judge run once, and the log says why and how many deliveries it read', async () => {
		const trigger = await deadAfterAnOutage();
		// every page asked with a cursor hands that cursor back: page 2 points at itself
		await fixture.injectFault({
			kind: 'repeat_cursor',
			count: 10_000,
			path: '/webhook-deliveries',
		});
		await fixture.clearRequests();

		const restarted = await restartN8n(trigger);

		// the newest dead page, then pages 1 and 2 before the claim and again under it
		expect(await deliveryListReads()).toBe(5);
		const runs = runsPerEvent([trigger, restarted]);
		expect(runs.every((count) => count === 1)).toBe(true);
		const [warning, ...others] = unreadWarnings();
		expect(others).toEqual([]);
		expect(warning).toMatch(
			/: the deliveries of endpoint \S+ were read back to \S+ only, 150 deliveries read \(the API handed out the same page cursor twice\): \d+ dead events? seen older than that, and possibly more, were not redelivered\.$/,
		);
		// only those sharing the oldest time read may have older deliveries unread
		expect(unreadIn(warning)).toBeGreaterThanOrEqual(1);
		expect(runs.length + unreadIn(warning)).toBe(NAMES.length);
	});
});

describe('one budget of pages for both reads of the list in a recovery', () => {
	const shipped = { ...LEDGER_READ_BUDGET };
	afterEach(() => Object.assign(LEDGER_READ_BUDGET, shipped));

	it('2 pages in all: one before the claim, one under it; what lies beyond is named, not redelivered', async () => {
		const trigger = await deadAfterAnOutage();
		// n8n 2.41 started: the trigger serves webhooks, and Recover Missed Events recovers
		const started = receiver().restart(trigger, trigger.staticData);
		const [endpoint] = await fixture.control.endpoints();
		LEDGER_READ_BUDGET.pages = 2;
		await fixture.clearRequests();

		const { items, error } = await runNode({
			type: ACTION_NODE_TYPE,
			parameters: {
				resource: 'webhookEndpoint',
				operation: 'recoverMissedEvents',
				recoverFor: 'endpoint',
				endpointId: { __rl: true, mode: 'id', value: endpoint.id },
			},
			credentials: fixture.credentials(),
			webhookBaseUrl: receiver().origin,
		});
		await fixture.control.settleDeliveries();

		expect(error).toBeUndefined();
		// the newest dead page, then page 1 before the claim and page 1 again under it
		expect(await deliveryListReads()).toBe(3);
		const runs = runsPerEvent([started]);
		expect(runs.every((count) => count === 1)).toBe(true);
		const [result] = items.map((item) => item.json);
		expect(result.redelivered).toBe(runs.length);
		const [warning] = unreadWarnings();
		expect(warning).toMatch(
			/^Recover Missed Events: the deliveries of endpoint \S+ were read back to \S+ only, 100 deliveries read \(the recovery read as many pages of them as it may\): \d+ dead events? seen older than that, and possibly more, were not redelivered\.$/,
		);
		// of the newest page's 100 events, those not judged are named; page 2's were never seen
		expect(result.not_read).toBe(unreadIn(warning));
		expect(runs.length + unreadIn(warning)).toBe(100);
	});
});

describe("the recovery's time for reading the list", () => {
	// Date stands still unless moved: every event of the outage has the same created_at
	useMovableDate();

	it.each([
		[
			'between two pages of the first read: it stops there, and nothing it read can be judged',
			2,
			/: the deliveries of endpoint \S+ were read back to \S+ only, 100 deliveries read \(the recovery ran out of time to read them\): 100 dead events seen older than that, and possibly more, were not redelivered\.$/,
		],
		[
			'before the read under the claim: that read asks for nothing, and nothing is redelivered',
			3,
			/: the deliveries of endpoint \S+ were not read beyond the newest dead ones, 100 deliveries read \(the recovery ran out of time to read them\): 100 dead events seen, and possibly more, were not redelivered\.$/,
		],
	])('runs out %s', async (_when, listReadsBeforeTheEnd, expectedWarning) => {
		const trigger = await deadAfterAnOutage();
		// the newest dead page and the pages that follow it are answered 1 s late
		await fixture.control.lateAnswers('/webhook-deliveries', 1, listReadsBeforeTheEnd);
		await fixture.clearRequests();

		const restarting = restartN8n(trigger);
		await fixture.control.faultsTaken();
		// while the last late page is under way, the recovery's time for reading passes
		moveDate(LEDGER_READ_BUDGET.seconds + 1);
		const restarted = await restarting;

		expect(await deliveryListReads()).toBe(listReadsBeforeTheEnd);
		expect(runsPerEvent([trigger, restarted])).toEqual([]);
		expect(unreadWarnings()).toEqual([expect.stringMatching(expectedWarning)]);
	});
});
