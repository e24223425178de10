/**
 * `npm run demo:emit -- <event type> [--data '<json>']`: the sandbox emits an event into the running
 * demo (its example payload, about the demo world's records, with `--data` merged in), delivers it
 * to n8n, and this prints each delivery and what every workflow it started made of it, in the
 * words of the editor of the n8n line the demo runs.
 */
import { parseArgs } from 'node:util';

import { TRIGGER_NODE_TYPE } from '../harness/constants';
import { N8nClient, nodeOutput, type Execution } from '../harness/n8n';
import { SandboxRequestError } from '../harness/sandbox-api';
import {
	SandboxControl,
	type WebhookDelivery,
	type WebhookEndpoint,
} from '../harness/sandbox-control';
import { EVENT_TYPES } from '../sandbox/events';
import { editorWords, type EditorWords } from './editor-words';
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

/** The finished executions that carry the event, once there are `expected` (or the wait is over). */
async function findExecutions(
	client: N8nClient,
	eventId: string,
	expected: number,
): Promise<Execution[]> {
	const startedAt = Date.now();
	for (;;) {
		const executions = (await client.listExecutions()).filter(
			(candidate) =>
				candidate.status !== 'running' &&
				candidate.status !== 'new' &&
				mentionsEvent(candidate, eventId),
		);
		if (executions.length >= expected || Date.now() - startedAt > EXECUTION_WAIT_MS) {
			return executions;
		}
		await new Promise((wake) => setTimeout(wake, 500));
	}
}

/** Where n8n ran it: the published workflow, or the editor waiting for one event. */
function runKind(execution: Execution, words: EditorWords): string {
	if (execution.mode === 'webhook') return 'published workflow';
	if (execution.mode === 'manual') return `in the editor: ${words.listenButton}`;
	return execution.mode;
}

/** Who an endpoint delivers to: a published workflow, or the editor listening for one event. */
function endpointOwner(endpoint: WebhookEndpoint | undefined, words: EditorWords): string {
	if (!endpoint) return 'an endpoint';
	// the trigger describes its endpoint as `<workflow name> (n8n workflow <id>)`
	const workflow = String(endpoint.description ?? endpoint.url).replace(
		/ \(n8n workflow \S+\)$/,
		'',
	);
	return endpoint.url.includes('/webhook-test/')
		? `the editor (${words.listenButton} in "${workflow}")`
		: `published workflow "${workflow}"`;
}

function subscribes(endpoint: WebhookEndpoint, eventType: string): boolean {
	return endpoint.events.includes(eventType) || endpoint.events.includes('*');
}

/**
 * One line per delivery of the event. The editor's endpoint lives only while it waits for one
 * event: after the run n8n removes it, and its delivery's record goes with it.
 */
function deliveryLines(
	deliveryIds: string[],
	settled: WebhookDelivery[],
	endpointsBefore: WebhookEndpoint[],
	words: EditorWords,
): string[] {
	const lines = settled.map((delivery) => {
		const endpoint = endpointsBefore.find((candidate) => candidate.id === delivery.endpoint_id);
		return `  ${endpointOwner(endpoint, words)}: ${delivery.status} (n8n answered ${String(delivery.last_response_status)})`;
	});
	const gone = endpointsBefore.filter(
		(endpoint) => !settled.some((delivery) => delivery.endpoint_id === endpoint.id),
	);
	for (let index = settled.length; index < deliveryIds.length; index++) {
		lines.push(
			`  ${endpointOwner(gone[index - settled.length], words)}: sent; n8n removed this endpoint after its one run, and the delivery's record with it (its execution is below)`,
		);
	}
	return lines;
}

/** Published workflows whose Workforce Management Trigger subscribes to `eventType`. */
async function publishedSubscribers(
	client: N8nClient,
	eventType: string,
): Promise<Array<{ id: string; name: string }>> {
	return (await client.listWorkflows({ active: true })).filter((workflow) =>
		workflow.nodes.some((node) => {
			const events = (node.parameters as { events?: unknown } | undefined)?.events;
			return (
				node.type === TRIGGER_NODE_TYPE &&
				node.disabled !== true &&
				Array.isArray(events) &&
				(events.includes(eventType) || events.includes('*'))
			);
		}),
	);
}

function parseData(text: string | undefined): Record<string, unknown> | undefined {
	if (text === undefined) return undefined;
	const data = JSON.parse(text) as unknown;
	if (data === null || typeof data !== 'object' || Array.isArray(data)) {
		throw new Error(`--data must be a JSON object, such as '{"hours_worked": 9}'. ${USAGE}`);
	}
	return data as Record<string, unknown>;
}

async function main(): Promise<void> {
	const { positionals, values } = parseArgs({
		allowPositionals: true,
		options: { data: { type: 'string' } },
	});
	const [eventType] = positionals;
	// An unknown type is refused by the sandbox, whose message lists the types.
	if (!eventType) throw new Error(`${USAGE}\nEvent types: ${EVENT_TYPES.join(', ')}`);
	const data = parseData(values.data);

	const state = readDemoState();
	const words = editorWords(state.n8nVersion);
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	// before the event: the editor's endpoint may be gone once it has run
	const endpointsBefore = (await sandbox.endpoints()).filter(
		(endpoint) => endpoint.enabled && subscribes(endpoint, eventType),
	);
	const emitted = await sandbox.emitEvent(eventType, data, { mergeIntoExample: true });
	const { event, delivery_ids: deliveryIds } = emitted;
	console.log(
		`Emitted ${event.type} (${event.id}) in ${state.target.organization}/${state.target.mode} (the trigger's items say api_key_mode: "${state.target.mode}").`,
	);
	if (emitted.example_payload) {
		console.log(
			`Its data is an example: the API specification does not show the ${event.type.split('.')[0]} payload. It names records of the demo organization.`,
		);
	}
	if (deliveryIds.length === 0) {
		console.log(
			`No published workflow (and no editor waiting in ${words.listenButton}) subscribes to ${event.type}: nothing was delivered. The demo's triggers listen to timesheet.approved.`,
		);
		return;
	}

	const deliveries = (await sandbox.settleDeliveries()).filter((delivery) =>
		deliveryIds.includes(delivery.id),
	);
	console.log(`The sandbox delivered it to ${plural(deliveryIds.length, 'webhook endpoint')}:`);
	for (const line of deliveryLines(deliveryIds, deliveries, endpointsBefore, words)) {
		console.log(line);
	}

	const client = new N8nClient(state.n8nUrl);
	client.useApiKey(state.n8nApiKey);
	// the editor's deliveries go with its endpoint once n8n removes it: count what was sent
	const sent = deliveryIds.length;
	const executions = await findExecutions(client, event.id, sent);
	if (executions.length === 0) {
		console.log(
			`n8n started no execution for ${event.id} within ${EXECUTION_WAIT_MS / 1000} s; see .demo/n8n.log.`,
		);
		process.exitCode = 1;
		return;
	}
	const published = executions.filter((execution) => execution.mode === 'webhook').length;
	const inEditor = executions.length - published;
	console.log(
		`n8n ran ${plural(executions.length, 'execution')} for ${event.id}: ${published} in published workflows, ${inEditor} in the editor${inEditor > 0 ? ` (${words.listenButton} on the trigger)` : ''}.`,
	);
	for (const execution of executions) {
		const workflow = await client.getWorkflow(execution.workflowId);
		const lastNode = execution.data?.resultData.lastNodeExecuted;
		const output =
			lastNode && execution.status === 'success' ? nodeOutput(execution, lastNode) : undefined;
		console.log(
			`\nn8n ran execution ${execution.id} of "${workflow.name}" (${runKind(execution, words)}): ${execution.status}.`,
		);
		const error = execution.data?.resultData.error;
		if (error) console.log(`Error: ${error.message}`);
		if (lastNode && output) {
			console.log(`"${lastNode}" output:\n${JSON.stringify(output, null, 2)}`);
		}
		console.log(
			`Open it in the editor: ${state.n8nUrl}/workflow/${execution.workflowId}/executions/${execution.id}`,
		);
	}
	for (const workflow of await publishedSubscribers(client, event.type)) {
		const ran = executions.some(
			(execution) => execution.workflowId === workflow.id && execution.mode === 'webhook',
		);
		if (!ran) {
			console.log(
				`\nWarning: "${workflow.name}" is published and subscribes to ${event.type}, but its published version ran no execution for ${event.id}; see .demo/n8n.log.`,
			);
			process.exitCode = 1;
		}
	}
	if (executions.length < sent) {
		console.log(
			`\n${plural(sent, 'delivery', 'deliveries')} were sent, but only ${plural(executions.length, 'execution')} finished within ${EXECUTION_WAIT_MS / 1000} s (a delivery the trigger ignores, such as a duplicate, starts none); see .demo/n8n.log.`,
		);
	}
}

function plural(count: number, one: string, many = `${one}s`): string {
	return `${count} ${count === 1 ? one : many}`;
}

main().catch((error: Error) => {
	console.error(
		error instanceof SandboxRequestError ? (error.apiMessage ?? error.message) : error.message,
	);
	process.exit(1);
});
