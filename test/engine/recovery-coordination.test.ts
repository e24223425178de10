/**
 * The rules by which recoveries, deactivations and activations share one endpoint's description
 * (docs/webhooks.md, "Coordination rules"), tried where they meet: a claim from the future, a claim
 * written over a deactivation's mark, a live claim met by a second recovery, an endpoint whose
 * deletion is pending, and another n8n served under this one's origin. The recoveries run as n8n
 * runs them: the companion operation (Webhook Endpoint → Recover Missed Events) and the trigger's
 * own recovery at n8n's start.
 */
import type { IDataObject } from 'n8n-workflow';

import { CLOCK_SKEW_MARGIN_SECONDS, RECOVERY_LEASE } from '../../nodes/shared/webhooks';
import { ACTION_NODE_TYPE } from '../../harness/constants';
import {
	background,
	HARNESS_RECOVERY_LEASE_SETTLE_SECONDS,
	HARNESS_REPUBLISH_GRACE_SECONDS,
	runNode,
	setRecoveryLeaseSettle,
	setRepublishGrace,
	useLogRecorder,
} from '../support/engine/harness';
import { OUTAGE_WEBHOOKS, outage } from '../support/engine/outage';
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { eventually } from '../../harness/poll';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: OUTAGE_WEBHOOKS,
});

const logged = useLogRecorder();

const NAMES = ['Friday Ltd', 'Saturday Ltd', 'Sunday Ltd'];
const WORKFLOW_NAME = 'Payroll sync';

afterEach(async () => {
	await background().backgroundSettled('retirement');
	await background().backgroundSettled('recovery');
	setRepublishGrace(HARNESS_REPUBLISH_GRACE_SECONDS);
	setRecoveryLeaseSettle(HARNESS_RECOVERY_LEASE_SETTLE_SECONDS);
});

async function activeTrigger(): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: ['member.created'], options: {} },
		credentials: fixture.credentials(),
		workflowName: WORKFLOW_NAME,
	});
}

/** n8n 2.41 starts: the trigger serves webhooks with its saved static data; no method of it runs. */
function startedWithoutActivation(trigger: LiveTrigger): LiveTrigger {
	return receiver().restart(trigger, trigger.staticData);
}

/** One run of the companion operation, as this n8n runs it; its items, or the error it ended in. */
async function companionRun(): Promise<{ items: IDataObject[]; error?: unknown }> {
	const { items, error } = await runNode({
		type: ACTION_NODE_TYPE,
		parameters: { resource: 'webhookEndpoint', operation: 'recoverMissedEvents' },
		credentials: fixture.credentials(),
		webhookBaseUrl: receiver().origin,
	});
	return { items: items.map((item) => item.json), error };
}

async function description(endpointId: string): Promise<string> {
	const endpoint = await fixture.api<{ description: string }>(
		'GET',
		`/webhook-endpoints/${endpointId}`,
	);
	return endpoint.description;
}

async function setDescription(endpointId: string, text: string): Promise<void> {
	await fixture.api('PATCH', `/webhook-endpoints/${endpointId}`, { description: text });
}

/** Waits until the sandbox has received (not yet answered, perhaps) a request like this. */
async function untilRequested(method: string, suffix: string): Promise<void> {
	await eventually(
		`${method} …${suffix} received`,
		async () => await fixture.requestCount(method, suffix),
		(count) => count > 0,
		{ intervalMs: 10, timeoutMs: 10_000 },
	);
}

function claimUntil(untilMs: number): string {
	return `[recovering missed events: 5eed5eed5eed until ${new Date(untilMs).toISOString()}] `;
}

describe('a recovery claim from the future (a main whose clock ran ahead stopped mid-recovery)', () => {
	const farAheadMs = (24 * 3600 + 10 * 60) * 1000;

	it.each([
		[
			'the companion',
			async (trigger: LiveTrigger) => {
				const started = startedWithoutActivation(trigger);
				const { items, error } = await companionRun();
				expect(error).toBeUndefined();
				expect(items).toEqual([expect.objectContaining({ redelivered: 3, busy: false })]);
				return started;
			},
		],
		[
			"the trigger's start",
			async (trigger: LiveTrigger) => {
				const restarted = receiver().restart(trigger, trigger.staticData);
				await restarted.activate('init');
				await background().backgroundSettled('recovery');
				return restarted;
			},
		],
	])(
		'is taken over by %s, which says so at warning level and runs each dead event once',
		async (_who, recover) => {
			const trigger = await activeTrigger();
			const endpointId = await outage(fixture, trigger, NAMES);
			const plain = await description(endpointId);
			await setDescription(endpointId, `${claimUntil(Date.now() + farAheadMs)}${plain}`);

			const recovering = await recover(trigger);
			await fixture.control.settleDeliveries();

			expect(runsPerEvent([recovering])).toEqual([1, 1, 1]);
			expect(logged).toContainEqual(
				expect.objectContaining({
					level: 'warn',
					message: expect.stringMatching(
						new RegExp(
							`^The recovery claim on webhook endpoint ${endpointId} runs until .*, further ahead than a claim lives`,
						),
					),
				}),
			);
			expect(await description(endpointId)).toBe(plain);
		},
	);

	it(`is still honoured just inside its lifetime plus ${CLOCK_SKEW_MARGIN_SECONDS} s: nothing redelivered`, async () => {
		const trigger = await activeTrigger();
		const endpointId = await outage(fixture, trigger, NAMES);
		const plain = await description(endpointId);
		const justInsideMs = (RECOVERY_LEASE.ttlSeconds + CLOCK_SKEW_MARGIN_SECONDS - 1) * 1000;
		await setDescription(endpointId, `${claimUntil(Date.now() + justInsideMs)}${plain}`);
		startedWithoutActivation(trigger);

		const { items, error } = await companionRun();

		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ redelivered: 0, busy: true })]);
		expect(await fixture.requestCount('POST', '/redeliver')).toBe(0);
	});
});

describe('a second recovery meeting a live claim', () => {
	it('leaves the endpoint to the first, which redelivers every dead event once without being cut off', async () => {
		const trigger = await activeTrigger();
		const endpointId = await outage(fixture, trigger, NAMES);
		await fixture.api('PATCH', `/webhook-endpoints/${endpointId}`, { enabled: true });
		const started = startedWithoutActivation(trigger);
		// the companion's first redelivery is answered late: it still holds its claim then
		await fixture.injectFault({
			kind: 'late_answer',
			seconds: 2,
			count: 1,
			path: '/webhook-deliveries/',
		});
		await fixture.clearRequests();

		const first = companionRun();
		await untilRequested('POST', '/redeliver');
		const second = receiver().restart(started, started.staticData);
		await second.activate('init');
		await background().backgroundSettled('recovery');
		const { items, error } = await first;
		await fixture.control.settleDeliveries();

		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ redelivered: 3, busy: false })]);
		expect(logged.map((line) => line.message)).toContainEqual(
			expect.stringContaining(
				`another recovery of missed events for endpoint ${endpointId} is under way`,
			),
		);
		expect(await fixture.requestCount('POST', '/redeliver')).toBe(3);
		expect(runsPerEvent([started, second])).toEqual([1, 1, 1]);
	});
});

describe('a deactivation whose mark lands while a recovery takes its claim', () => {
	it('still deletes the endpoint after the grace period, and nothing is redelivered to the deactivated trigger', async () => {
		setRepublishGrace(5);
		// the trigger's check of its marks comes when a recovery's claim has had time to land
		setRecoveryLeaseSettle(RECOVERY_LEASE.settleSeconds);
		const trigger = await activeTrigger();
		const endpointId = await outage(fixture, trigger, NAMES);
		// enabled again by hand: the companion's first request for this endpoint is its claim's read
		await fixture.api('PATCH', `/webhook-endpoints/${endpointId}`, { enabled: true });
		await fixture.clearRequests();
		await fixture.injectFault({
			kind: 'late_answer',
			seconds: 1,
			count: 1,
			path: `/webhook-endpoints/${endpointId}`,
		});

		const companion = companionRun();
		await untilRequested('GET', `/webhook-endpoints/${endpointId}`);
		await trigger.runWebhookMethod('delete');
		const { items, error } = await companion;
		await background().backgroundSettled('retirement');
		await fixture.control.settleDeliveries();

		expect(error).toBeUndefined();
		expect(items).toEqual([expect.objectContaining({ redelivered: 0, busy: true })]);
		expect(await fixture.requestCount('POST', '/redeliver')).toBe(0);
		expect(await fixture.control.endpoints()).toEqual([]);
		expect(trigger.executions).toEqual([]);
	});
});

describe('an endpoint whose deletion is pending', () => {
	it('is neither enabled again nor recovered by the companion', async () => {
		setRepublishGrace(3);
		const trigger = await activeTrigger();
		const endpointId = await outage(fixture, trigger, NAMES);
		await trigger.runWebhookMethod('delete');
		expect(await description(endpointId)).toMatch(/; retired [0-9a-f]+ \d+\)$/);

		const { items, error } = await companionRun();

		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		const [endpoint] = await fixture.control.endpoints();
		expect(endpoint.enabled).toBe(false);
		expect(await fixture.requestCount('POST', '/redeliver')).toBe(0);
		await background().backgroundSettled('retirement');
		expect(await fixture.control.endpoints()).toEqual([]);
	});
});
