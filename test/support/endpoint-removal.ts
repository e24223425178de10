/**
 * A deactivation removes the trigger's endpoint only once the grace period in which a republish
 * could take it back is over (nodes/WorkforceManagementTrigger/registration/retirement.ts): waits
 * for it and prints how long it took.
 */
import { runtimeDescription } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import type { SandboxControl } from '../../harness/sandbox-control';

/** Grace period (10 s) plus the API calls, with room for a loaded machine. */
const REMOVAL_TIMEOUT_MS = 30_000;

/**
 * Waits until none of `endpointIds` is left at the API and returns the seconds since `since`
 * (when the deactivation was asked for).
 */
export async function endpointsRemoved(
	control: SandboxControl,
	endpointIds: string[],
	{ since, what }: { since: number; what: string },
): Promise<number> {
	await eventually(
		`${what}: endpoint(s) ${endpointIds.join(', ')} removed`,
		async () => await control.endpoints(),
		(endpoints) => !endpoints.some((endpoint) => endpointIds.includes(endpoint.id)),
		{
			timeoutMs: REMOVAL_TIMEOUT_MS,
			intervalMs: 250,
			describe: (endpoints) => `left: ${endpoints.map((endpoint) => endpoint.id).join(', ')}`,
		},
	);
	const seconds = (Date.now() - since) / 1000;
	console.log(
		`${what}: endpoint removed ${seconds.toFixed(1)} s after the deactivation was asked for (${runtimeDescription()})`,
	);
	return seconds;
}
