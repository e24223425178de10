/**
 * Queue mode (issue #19 point 9): does n8n's own Remove Duplicates node, placed after our trigger,
 * stop the second run when two copies of one envelope land on both webhook processes at the same
 * moment? Sends PAIRS pairs the way test/e2e/queue.e2e.test.ts does and counts, per envelope, the
 * runs of the trigger and the runs that reached the node after Remove Duplicates. Also reads what
 * Remove Duplicates kept in Postgres (`processed_data`): ids it lost to concurrent updates would be
 * let through again later.
 *
 *   [N8N_VERSION=… N8N_CACHE_DIR=…] PAIRS=20 npx tsx bench/probes/probe-queue-remove-duplicates.ts
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { N8N_VERSION, type Execution } from '../../harness/n8n';
import type { EventEnvelope } from '../../harness/sandbox-control';
import { postSignedEnvelope } from '../../harness/signed-delivery';
import {
	chainWorkflow,
	workforceTriggerNode,
	type WorkflowNode,
} from '../../harness/workflows';
import { E2eWorld } from '../../harness/world';

const LOG = process.env.PROBE_LOG ?? '/tmp/probe-queue-remove-duplicates.log';
const PAIRS = Number(process.env.PAIRS ?? 20);
const TRIGGER = 'On timesheet approved';
const DEDUPE = 'Remove Duplicates';
const AFTER = 'After Remove Duplicates';
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** The recipe as a user sets it in the editor (n8n-nodes-base.removeDuplicates v2). */
const removeDuplicatesNode: WorkflowNode = {
	name: DEDUPE,
	type: 'n8n-nodes-base.removeDuplicates',
	typeVersion: 2,
	parameters: {
		operation: 'removeItemsSeenInPreviousExecutions',
		logic: 'removeItemsWithAlreadySeenKeyValues',
		dedupeValue: '={{ $json.id }}',
		options: { scope: 'workflow', historySize: 10000 },
	},
};

const afterNode: WorkflowNode = {
	name: AFTER,
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	parameters: {},
};

/** Ids of the items a node output in an execution (none when it did not run or output nothing). */
function outputIds(execution: Execution, nodeName: string): string[] {
	const items = execution.data?.resultData.runData[nodeName]?.[0]?.data?.main[0] ?? [];
	return items.map((item) => String(item.json.id));
}

async function main() {
	const world = await E2eWorld.start({
		queue: true,
		onN8nOutput: (chunk) => appendFileSync(LOG, chunk),
	});
	const cluster = world.queue!;
	const psql = (sql: string) =>
		execFileSync(
			join(process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin', 'psql'),
			[
				'-h',
				cluster.postgres.host,
				'-p',
				String(cluster.postgres.port),
				'-U',
				'n8n',
				'-d',
				'postgres',
				'-tAc',
				sql,
			],
			{ encoding: 'utf8' },
		).trim();
	try {
		const trigger = {
			...workforceTriggerNode(TRIGGER, world.credential, ['timesheet.approved']),
			webhookId: randomUUID(),
		};
		const workflow = chainWorkflow('Queue: trigger → Remove Duplicates', [
			trigger,
			removeDuplicatesNode,
			afterNode,
		]);
		const { id: workflowId } = await world.client.createWorkflow(workflow);
		await world.client.activateWorkflow(workflowId);
		let endpoints = await world.control.endpoints();
		for (let attempt = 0; attempt < 150 && endpoints.length === 0; attempt++) {
			await sleep(200);
			endpoints = await world.control.endpoints();
		}
		const endpoint = endpoints[0];
		// n8n 2.41 registers the endpoint before main has saved the sealed secret the webhook
		// processes read: a delivery before that is refused (no_secret).
		const staticData = () =>
			psql(`select "staticData" from workflow_entity where id='${workflowId}'`);
		for (let attempt = 0; attempt < 150 && !staticData().includes(endpoint.id); attempt++) {
			await sleep(200);
		}
		const urls = cluster.webhooks.map((n8n) => n8n.webhookUrl(trigger.webhookId, 'webhook'));

		// One real delivery through the API gives the envelope every pair copies (with a new id).
		const { event } = await world.control.emitEvent('timesheet.approved');
		await world.control.settleDeliveries();
		await world.client.waitForExecutions(workflowId, 1);
		const template: EventEnvelope = event;

		const envelopes = Array.from({ length: PAIRS }, () => ({
			...template,
			id: `evt_${randomBytes(12).toString('hex')}`,
		}));
		for (const envelope of envelopes) {
			const answers = await Promise.all(
				urls.map((url) => postSignedEnvelope(url, envelope, endpoint.secret!)),
			);
			if (answers.some((answer) => answer.status !== 200)) {
				throw new Error(`a copy was refused: ${answers.map((answer) => answer.status)}`);
			}
		}
		const queued = (await world.client.listExecutions(workflowId)).length;
		const executions = await world.client.waitForExecutions(workflowId, queued);

		const count = (nodeName: string, id: string) =>
			executions.filter((execution) => outputIds(execution, nodeName).includes(id)).length;
		const rows = envelopes.map((envelope) => ({
			trigger: count(TRIGGER, envelope.id),
			after: count(AFTER, envelope.id),
		}));
		const statuses: Record<string, number> = {};
		for (const execution of executions) {
			statuses[execution.status] = (statuses[execution.status] ?? 0) + 1;
		}
		const kept = psql(
			`select json_array_length(("value"::json)->'data') from processed_data where "workflowId"='${workflowId}'`,
		);
		const histogram = (key: 'trigger' | 'after') =>
			[0, 1, 2]
				.map((runs) => `${runs}: ${rows.filter((row) => row[key] === runs).length}`)
				.join(', ');
		console.log(
			[
				`n8n ${N8N_VERSION}, queue mode, ${PAIRS} pairs sent at the same moment to webhook-1 and webhook-2`,
				`  executions: ${executions.length} (${JSON.stringify(statuses)})`,
				`  envelopes by trigger runs             ${histogram('trigger')}`,
				`  envelopes by runs after Remove Duplicates ${histogram('after')}`,
				`  pairs that ran twice past the trigger: ${rows.filter((row) => row.trigger === 2).length} of ${PAIRS}`,
				`  pairs that passed Remove Duplicates twice: ${rows.filter((row) => row.after === 2).length} of ${PAIRS}`,
				`  pairs that passed it never: ${rows.filter((row) => row.after === 0).length} of ${PAIRS}`,
				`  ids Remove Duplicates kept in processed_data: ${kept || 'no row'} (of ${PAIRS + 1} distinct ids seen)`,
			].join('\n'),
		);
	} finally {
		await world.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
