/**
 * Regular mode (one n8n process): is the duplicate memory in the database after webhook deliveries?
 * Delivers an envelope, restarts n8n, redelivers the same envelope: ignored or run again.
 */
import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { nodeOutput } from '../../harness/n8n';
import { postSignedEnvelope } from '../../harness/signed-delivery';
import { E2eWorld } from '../../harness/world';

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

async function main() {
	const world = await E2eWorld.start({});
	try {
		const workflow = timesheetApprovedWorkflow(world.credential);
		const { id: workflowId } = await world.client.createWorkflow(workflow);
		// the public API reads the workflow row: what is in the database
		const staticData = async () =>
			JSON.stringify((await world.client.getWorkflow(workflowId)).staticData);
		await world.client.activateWorkflow(workflowId);
		let endpoints = await world.control.endpoints();
		for (let i = 0; i < 100 && endpoints.length === 0; i++) {
			await sleep(200);
			endpoints = await world.control.endpoints();
		}
		const served = async () => {
			const url = world.n8n.webhookUrl(workflow.triggerWebhookId, 'webhook');
			for (let i = 0; i < 100; i++) {
				if ((await fetch(url, { method: 'POST', body: '{}' })).status !== 404) return;
				await sleep(200);
			}
		};
		await served();
		const { event } = await world.control.emitEvent('timesheet.approved');
		await world.control.settleDeliveries();
		await world.client.waitForExecutions(workflowId, 1);
		await sleep(1000);
		console.log('DB after the delivery:', await staticData());
		await world.stopN8n();
		await world.startN8n();
		await served();
		const url = world.n8n.webhookUrl(workflow.triggerWebhookId, 'webhook');
		let again = await postSignedEnvelope(url, event, endpoints[0].secret!);
		for (let i = 0; i < 50 && again.status === 404; i++) {
			await sleep(200);
			again = await postSignedEnvelope(url, event, endpoints[0].secret!);
		}
		console.log(`redelivery after restart: ${again.status} ${again.body}`);
		await sleep(3000);
		const executions = await world.client.listExecutions(workflowId);
		const settled = await world.client.waitForExecutions(workflowId, executions.length);
		const runs = settled.filter(
			(execution) => nodeOutput(execution, 'On timesheet approved').id === event.id,
		).length;
		console.log(`runs of the envelope: ${runs}`);
	} finally {
		await world.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
