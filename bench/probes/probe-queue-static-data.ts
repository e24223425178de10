/**
 * Queue mode: the trigger's static data in Postgres after each delivery, and whether a copy sent to
 * the other webhook process runs again. N8N_VERSION / N8N_CACHE_DIR pick the n8n install.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { nodeOutput } from '../../harness/n8n';
import type { EventEnvelope } from '../../harness/sandbox-control';
import { postSignedEnvelope } from '../../harness/signed-delivery';
import { E2eWorld } from '../../harness/world';

const LOG = process.env.PROBE_LOG ?? '/tmp/probe-queue.log';
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

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
		const workflow = timesheetApprovedWorkflow(world.credential);
		const { id: workflowId } = await world.client.createWorkflow(workflow);
		const staticData = () =>
			psql(`select "staticData" from workflow_entity where id='${workflowId}'`);
		await world.client.activateWorkflow(workflowId);
		let endpoints = await world.control.endpoints();
		for (let i = 0; i < 100 && endpoints.length === 0; i++) {
			await sleep(200);
			endpoints = await world.control.endpoints();
		}
		const endpoint = endpoints[0];
		console.log('after activation:', staticData());
		const urls = cluster.webhooks.map((n8n) =>
			n8n.webhookUrl(workflow.triggerWebhookId, 'webhook'),
		);

		const { event } = await world.control.emitEvent('timesheet.approved');
		await world.control.settleDeliveries();
		await sleep(3000);
		console.log('after API delivery to webhook-1:', staticData());
		const template: EventEnvelope = event;
		const fresh = () => ({ ...template, id: `evt_${randomBytes(12).toString('hex')}` });

		const results: string[] = [];
		for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
			const envelope = fresh();
			const first = await postSignedEnvelope(urls[1], envelope, endpoint.secret!);
			await sleep(2000);
			console.log(`round ${round}: webhook-2 answered ${first.body}; DB:`, staticData());
			const copy = await postSignedEnvelope(urls[0], envelope, endpoint.secret!);
			await sleep(2000);
			console.log(`round ${round}: copy to webhook-1 answered ${copy.body}; DB:`, staticData());
			const all = await world.client.listExecutions(workflowId);
			const executions = await world.client.waitForExecutions(workflowId, all.length);
			const runs = executions.filter(
				(execution) => nodeOutput(execution, 'On timesheet approved').id === envelope.id,
			).length;
			results.push(`round ${round}: runs=${runs}`);
		}
		console.log(results.join('\n'));
	} finally {
		await world.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
