/**
 * An outage as the engine tests stage it: n8n cannot be reached, so every delivery of the events
 * emitted meanwhile and every retry fails, until the API marks each delivery `dead` and disables
 * the endpoint. Used with a sandbox configured by {@link OUTAGE_WEBHOOKS}.
 */
import type { SandboxFixture } from '../sandbox-fixture';
import type { LiveTrigger } from './trigger-receiver';

/** Retries after 60, 60 and 60 s; 3 events failing twice disable the endpoint, and their next retries die. */
export const OUTAGE_WEBHOOKS = { retryDelaysSeconds: [60, 60, 60], autoDisableAfter: 6 };

/**
 * Creates one member per name while `trigger` is unreachable, lets every retry fall due and fail,
 * and checks that the deliveries are dead and the one endpoint disabled; returns its id. The
 * trigger stays unreachable unless `reachableAfter` is set.
 */
export async function outage(
	fixture: SandboxFixture,
	trigger: LiveTrigger,
	names: string[],
	{ reachableAfter = false }: { reachableAfter?: boolean } = {},
): Promise<string> {
	trigger.unavailableFor = Infinity;
	for (const name of names) await fixture.createMemberAndSettle(name);
	for (const seconds of OUTAGE_WEBHOOKS.retryDelaysSeconds) {
		await fixture.control.advanceClock(seconds);
		await fixture.control.settleDeliveries();
	}
	const statuses = (await fixture.control.settleDeliveries()).map((delivery) => delivery.status);
	expect(new Set(statuses)).toEqual(new Set(['dead']));
	const endpoints = await fixture.control.endpoints();
	expect(endpoints.map((endpoint) => endpoint.enabled)).toEqual([false]);
	if (reachableAfter) trigger.unavailableFor = 0;
	return endpoints[0].id;
}
