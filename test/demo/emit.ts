/**
 * `npm run demo:emit -- <event type> [--data '<json>']`: the sandbox emits an event into the running
 * demo, delivers it to n8n, and this prints what the workflow made of it.
 */
import { parseArgs } from 'node:util';

import { N8nClient, nodeOutput, type Execution } from '../support/n8n';
import { SandboxControl, SandboxRequestError } from '../support/sandbox-control';
import { readDemoState } from './state';

const USAGE =
	"Usage: npm run demo:emit -- <event type> [--data '<json object>']   e.g. timesheet.approved";
const EXECUTION_WAIT_MS = 20_000;

function mentionsEvent(execution: Execution, eventId: string): boolean {
	return Object.values(execution.data?.resultData.runData ?? {}).some((runs) =>
		runs.some((run) =>
			run.data?.main.some((items) => items?.some((item) => item.json.id === eventId)),
		),
	);
}

async function findExecution(client: N8nClient, eventId: string): Promise<Execution | undefined> {
	const startedAt = Date.now();
	while (Date.now() - startedAt < EXECUTION_WAIT_MS) {
		const execution = (await client.listExecutions()).find(
			(candidate) =>
				candidate.status !== 'running' &&
				candidate.status !== 'new' &&
				mentionsEvent(candidate, eventId),
		);
		if (execution) return execution;
		await new Promise((wake) => setTimeout(wake, 500));
	}
	return undefined;
}

async function main(): Promise<void> {
	const { positionals, values } = parseArgs({
		allowPositionals: true,
		options: { data: { type: 'string' } },
	});
	const [eventType] = positionals;
	if (!eventType) throw new Error(USAGE);
	const data =
		values.data === undefined ? undefined : (JSON.parse(values.data) as Record<string, unknown>);

	const state = readDemoState();
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	const { event, delivery_ids: deliveryIds } = await sandbox.emitEvent(eventType, data);
	console.log(
		`Emitted ${event.type} (${event.id}) in ${state.target.organization}/${state.target.mode}.`,
	);
	if (deliveryIds.length === 0) {
		console.log(
			`No active workflow subscribes to ${event.type}: nothing was delivered. The demo's trigger listens to timesheet.approved.`,
		);
		return;
	}

	const deliveries = (await sandbox.settleDeliveries()).filter((delivery) =>
		deliveryIds.includes(delivery.id),
	);
	for (const delivery of deliveries) {
		console.log(
			`Delivery ${delivery.id}: ${delivery.status} (n8n answered ${String(delivery.last_response_status)})`,
		);
	}

	const client = new N8nClient(state.n8nUrl);
	client.useApiKey(state.n8nApiKey);
	const execution = await findExecution(client, event.id);
	if (!execution) {
		console.log(
			`n8n started no execution for ${event.id} within ${EXECUTION_WAIT_MS / 1000} s; see .demo/n8n.log.`,
		);
		process.exitCode = 1;
		return;
	}
	const lastNode = execution.data?.resultData.lastNodeExecuted;
	const output =
		lastNode && execution.status === 'success' ? nodeOutput(execution, lastNode) : undefined;
	console.log(`n8n ran execution ${execution.id}: ${execution.status}.`);
	if (lastNode && output) console.log(`"${lastNode}" output:\n${JSON.stringify(output, null, 2)}`);
	console.log(
		`Open it in the editor: ${state.n8nUrl}/workflow/${execution.workflowId}/executions/${execution.id}`,
	);
}

main().catch((error: Error) => {
	console.error(
		error instanceof SandboxRequestError ? (error.apiMessage ?? error.message) : error.message,
	);
	process.exit(1);
});
