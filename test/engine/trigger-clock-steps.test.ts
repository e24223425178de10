/**
 * Each event runs once when clocks step or differ around a full hour (issue 43): NTP steps one
 * process's clock back 2 s just after the hour, or two webhook processes (queue mode) sharing one
 * workflow row run 1 s ahead and 1 s behind. Whatever hour each process took an id for, the
 * duplicate memory saved in static data must hold every id, so that after a restart the API's
 * retries and redeliveries are recognised. Only `Date` is moved; the sandbox's clock moves with it.
 */
import { runsPerEvent, useTriggerSandbox } from '../support/engine/trigger-receiver';
import type { LiveTrigger } from '../support/engine/trigger-receiver';
import { moveDate, useMovableDate } from '../support/movable-date';
import { withSkewedClock } from '../support/skewed-clock';

const { fixture, receiver } = useTriggerSandbox({
	webhooks: { retryDelaysSeconds: [60, 60, 60] },
});

useMovableDate();

const HOUR_MS = 3_600_000;

async function activeTrigger(): Promise<LiveTrigger> {
	return await receiver().activeTrigger({
		parameters: { events: ['member.created'], options: {} },
		credentials: fixture.credentials(),
	});
}

/** A full hour at least an hour ahead, so that the test only ever moves the clock forward to it. */
function aFullHourAhead(): number {
	return Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + HOUR_MS;
}

/** Sets the clock (the node's and the sandbox's alike) to `seconds` from `fullHour`. */
function setClock(fullHour: number, seconds: number): void {
	moveDate((fullHour + seconds * 1000 - Date.now()) / 1000);
}

/** An event from the API, delivered before this returns. */
async function emitMember(name: string): Promise<void> {
	await fixture.createMemberAndSettle(name);
}

function statuses(triggers: LiveTrigger[]): number[] {
	return triggers.flatMap((trigger) => trigger.received.map((request) => request.status));
}

function namesRun(trigger: LiveTrigger): string[] {
	return trigger.executions.map(([item]) =>
		String((item.json.data as { business_name: string }).business_name),
	);
}

describe('a clock stepped back across a full hour', () => {
	it('2 s back just after the hour, four events around it, a restart, the API retries each: each runs once', async () => {
		const trigger = await activeTrigger();
		trigger.responseLostFor = 4; // a proxy loses each answer: the API retries all four
		const fullHour = aFullHourAhead();

		setClock(fullHour, -1);
		await emitMember('Before the hour');
		setClock(fullHour, 0.5);
		await emitMember('Just after the hour');
		setClock(fullHour, -1.5); // NTP steps the clock back 2 s
		await emitMember('After the step back');
		setClock(fullHour, 0.5);
		await emitMember('After the hour again');
		expect(statuses([trigger])).toEqual([504, 504, 504, 504]);
		expect(trigger.executions).toHaveLength(4);

		const restarted = receiver().restart(trigger, trigger.staticData);
		setClock(fullHour, 61);
		await fixture.control.advanceClock(0);
		await fixture.control.settleDeliveries();

		expect(statuses([restarted])).toEqual([200, 200, 200, 200]);
		expect(runsPerEvent([trigger, restarted])).toEqual([1, 1, 1, 1]);
	});
});

describe('two webhook processes whose clocks differ by 2 s', () => {
	it('ten events in the hour before, one on each process around the full hour, both restarted, all 12 redelivered: each runs once', async () => {
		const trigger = await activeTrigger();
		const [ahead, behind] = receiver().webhookProcesses(trigger, 2);
		withSkewedClock(ahead, +1);
		withSkewedClock(behind, -1);
		const fullHour = aFullHourAhead();

		for (let index = 0; index < 10; index++) {
			setClock(fullHour, -3000 + index * 300);
			await emitMember(`The hour before, ${index + 1}`);
		}
		// taken in turn: the eleventh goes to the process ahead (already past the hour by its
		// clock), the twelfth to the one behind (still before it)
		setClock(fullHour, -0.5);
		await emitMember('At the hour, ahead');
		setClock(fullHour, -0.2);
		await emitMember('At the hour, behind');
		expect(statuses([ahead, behind])).toEqual(Array(12).fill(200));
		expect(namesRun(ahead).at(-1)).toBe('At the hour, ahead');
		expect(namesRun(behind).at(-1)).toBe('At the hour, behind');

		// a minute past the hour, 1 s either way no longer changes any hour: the restarted
		// processes share the test's clock, and the API's redeliveries may overlap
		const restarted = receiver().webhookProcesses(ahead, 2);
		setClock(fullHour, 60);
		const deliveries = await fixture.control.settleDeliveries();
		expect(deliveries).toHaveLength(12);
		for (const { id } of deliveries) {
			await fixture.api('POST', `/webhook-deliveries/${id}/redeliver`, {});
		}
		await fixture.control.settleDeliveries();

		expect(statuses(restarted)).toEqual(Array(12).fill(200));
		expect(runsPerEvent([ahead, behind, ...restarted])).toEqual(Array(12).fill(1));
	});
});
