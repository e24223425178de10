/**
 * The trigger served by several webhook processes, as in n8n's queue mode: each process keeps its
 * own memory, and all of them load static data from one workflow row per request and save it back
 * whole, without a lock. After an API key rotation each process repairs the signing secret by
 * itself; whatever order their saves land in, the stored secret must end up being one the API
 * signs with, and every event must run.
 *
 * The node's clock and the sandbox's move together here (only `Date` is faked, and the sandbox's
 * clock is the wall clock plus its offset), so a day passes for the API and for each process's
 * once-a-minute limits alike.
 */

import { LIVE_KEY } from '../../harness/constants';
import { credentialsHelper, useLogRecorder } from '../support/engine/harness';
import { useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';
import { openNodeSecret } from '../support/sealed-secret';
import { postSignedEnvelope } from '../../harness/signed-delivery';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60] },
});
const logged = useLogRecorder();

const HOUR = 3600;

useMovableDate();

/** Time passes for the API and for n8n alike; deliveries falling due meanwhile are sent. */
async function passTime(seconds: number): Promise<void> {
	moveDate(seconds);
	await fixture.control.advanceClock(0);
	await fixture.control.settleDeliveries();
}

async function activeTrigger(): Promise<LiveTrigger> {
	const trigger = receiver().trigger({
		parameters: { events: ['member.created'], options: {} },
		credentials: fixture.credentials(),
		workflowName: 'Payroll sync',
	});
	await trigger.activate();
	return trigger;
}

/**
 * After an API key rotation, each process in turn gets one event, finds the stored secret unusable
 * and rolls it; the processes' saves are held and land in reverse order, so the row keeps the
 * secret of the earliest roll, which the API signs with for 24 hours only.
 */
async function rollsSavedInTheWorseOrder(count: number) {
	const trigger = await activeTrigger();
	await fixture.createMemberAndSettle('Before the rotation', LIVE_KEY);
	const rotatedKey = await fixture.control.rotateKey(LIVE_KEY);
	trigger.updateCredential({ apiKey: rotatedKey });
	const processes = receiver().webhookProcesses(trigger, count);
	for (const process of processes.slice(0, -1)) process.holdSaves();
	for (const [index, process] of processes.entries()) {
		await fixture.createMemberAndSettle(`Refused by process ${index + 1}`, rotatedKey);
		expect(process.received.map((request) => request.status)).toEqual([401]);
	}
	for (const process of [...processes].reverse()) await process.releaseSaves();

	const [endpoint] = await fixture.control.endpoints();
	const stored = openNodeSecret(trigger.nodeStaticData(processes[0].staticData), rotatedKey);
	expect(stored).toBeDefined();
	expect(stored).not.toBe(endpoint.secret);
	expect((endpoint.previous_secrets ?? []).map(({ secret }) => secret)).toContain(stored);
	return { trigger, processes, rotatedKey };
}

/** Every event the API created was delivered, and ran exactly once, in one of the processes. */
async function expectEveryEventRanOnce(triggers: LiveTrigger[]): Promise<void> {
	const deliveries = await fixture.control.settleDeliveries();
	expect(deliveries.filter((delivery) => delivery.status !== 'delivered')).toEqual([]);
	const ran = triggers.flatMap((trigger) => trigger.executions.map(([item]) => item.json.id));
	expect(ran.sort()).toEqual(deliveries.map((delivery) => delivery.event_id).sort());
}

async function hourlyEventsForADay(apiKey: string): Promise<void> {
	for (let hour = 1; hour <= 25; hour++) {
		await passTime(HOUR);
		await fixture.createMemberAndSettle(`Hour ${hour}`, apiKey);
	}
}

describe('several webhook processes repairing the secret after an API key rotation', () => {
	it.each([2, 3])(
		'%i processes whose saves land in the worse order: 25 hours later every event has run once, and the row holds the secret the API signs with',
		async (count) => {
			const { trigger, processes, rotatedKey } = await rollsSavedInTheWorseOrder(count);

			await hourlyEventsForADay(rotatedKey);

			await expectEveryEventRanOnce([trigger, ...processes]);
			expect(processes.flatMap((process) => process.executions)).toHaveLength(count + 25);
			const [endpoint] = await fixture.control.endpoints();
			expect(openNodeSecret(trigger.nodeStaticData(processes[0].staticData), rotatedKey)).toBe(
				endpoint.secret,
			);
			expect(endpoint.previous_secrets).toEqual([]);
			// converged by storing the last roll again, not by rolling on
			const rolls = (await fixture.requests()).filter(({ path }) => path.endsWith('/roll-secret'));
			expect(rolls).toHaveLength(count);
			expect(logged.map(({ message }) => message)).toContainEqual(
				expect.stringContaining('stored the secret this process rolled for endpoint'),
			);
		},
	);
});

describe('forged requests while the stored secret cannot be opened', () => {
	it('cost each process at most one credential load and one log line a minute', async () => {
		const trigger = await activeTrigger();
		const rotatedKey = await fixture.control.rotateKey(LIVE_KEY);
		// the credential not updated correctly: the secret stays unusable, the repair fails
		trigger.updateCredential({ apiKey: `${rotatedKey}_typo` });
		const processes = receiver().webhookProcesses(trigger, 2);
		const forged = { id: 'evt_f0f0', type: 'member.created', data: {} };

		for (let minute = 0; minute < 2; minute++) {
			await fixture.clearRequests();
			logged.length = 0;
			const loadsBefore = credentialsHelper.loads;

			for (let attempt = 0; attempt < 50; attempt++) {
				const answer = await postSignedEnvelope(processes[0].webhookUrl(), forged, 'whsec_forged');
				expect(answer.status).toBe(401);
			}

			// each API call authenticates with a credential load of its own (n8n's request helper)
			const apiCalls = (await fixture.requests()).length;
			expect(apiCalls).toBeLessThanOrEqual(2 * processes.length);
			expect(credentialsHelper.loads - loadsBefore - apiCalls).toBeLessThanOrEqual(
				processes.length,
			);
			const lines = logged.filter(
				({ meta }) => (meta as { workflowId?: string })?.workflowId === trigger.workflow.id,
			);
			expect(lines.length).toBeGreaterThan(0);
			expect(lines.length).toBeLessThanOrEqual(processes.length);
			await passTime(61);
		}
		expect(processes.flatMap((process) => process.executions)).toEqual([]);
	});
});
