/**
 * "Listen for test event" in a real n8n editor, in Debian's Chromium, now that the trigger has a
 * `trigger()` (its schedule) and an `execute()` (its input items passed through) beside its
 * `webhook()`: a user clicks the trigger's test button, an event is emitted into the sandbox, and
 * the trigger's output panel shows that event's item, received in the editor. n8n's API confirms
 * what the editor ran: one test execution (mode `manual`) whose trigger output is that one item.
 * Before the trigger had `execute()`, n8n would have called `trigger()` for that run instead of
 * passing the delivery's item through.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { PACKAGE_ROOT } from '../../harness/constants';
import { N8N_VERSION, type Execution } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import { E2eWorld } from '../../harness/world';
import { editorWords } from '../../demo/editor-words';
import { launchChromium } from '../../demo/pictures/capture';
import {
	canvasNode,
	openEditorPage,
	openNodePanel,
	openWorkflow,
	outputTableRows,
} from '../../demo/pictures/editor';
import { timesheetApprovedWorkflow } from '../../demo/workflows';

const TRIGGER = 'On timesheet approved';
const SUMMARY = 'Approved timesheet summary';
const EVENT_TYPE = 'timesheet.approved';
const VIEWPORT = { width: 1600, height: 900 };
const RESULTS_FOLDER = join(PACKAGE_ROOT, 'test-results');
/** The output panel with the event's item, to look at (JSON view: every field of the item). */
const OUTPUT_PICTURE = join(RESULTS_FOLDER, 'listen-for-test-event-output.png');

const words = editorWords(N8N_VERSION);

let world: E2eWorld;
let browser: Browser;

beforeAll(async () => {
	world = await E2eWorld.start();
	browser = await launchChromium();
}, 420_000);

afterAll(async () => {
	await browser?.close();
	await world?.stop();
}, 60_000);

/** Runs a test's steps in a page of its own; on a failure, keeps what the browser showed. */
async function inEditor(name: string, steps: (page: Page) => Promise<void>): Promise<void> {
	const page = await openEditorPage(browser, world, VIEWPORT);
	try {
		await steps(page);
	} catch (error) {
		mkdirSync(RESULTS_FOLDER, { recursive: true });
		const picture = join(RESULTS_FOLDER, `listen-for-test-event-failure-${name}.png`);
		const saved = await page
			.screenshot({ path: picture })
			.then(() => true)
			.catch(() => false);
		if (saved) {
			(error as Error).message += `\nThe browser's view at the failure: ${picture}`;
			console.error(`${name}: the browser's view at the failure: ${picture}`);
		}
		throw error;
	} finally {
		await page.context().close();
	}
}

/**
 * The click's request, `POST /rest/workflows/<id>/run`, once n8n has answered that it waits for a
 * test event. n8n answers after the test registration is complete: it registers the test webhook,
 * runs the trigger's `create()` (the API's endpoint appears), then registers the webhook again
 * with the static data `create()` wrote (the endpoint's secret). An event delivered in between
 * would meet the first registration, with no secret, and be refused (401).
 */
function waitingForTestEvent(page: Page, workflowId: string): Promise<void> {
	return page
		.waitForResponse(
			(response) =>
				response.request().method() === 'POST' &&
				response.url().includes(`/rest/workflows/${workflowId}/run`),
		)
		.then(async (response) => {
			expect(response.status()).toBe(200);
			expect(await response.json()).toMatchObject({ data: { waitingForWebhook: true } });
		});
}

/**
 * Once n8n has registered the trigger's test URL with the API (its `/webhook-test/` endpoint, made
 * by `create()` when the user clicked) and it is the only endpoint, emits one event and waits until
 * the sandbox delivered it there. Answers the event's id. An earlier test's listener ends with a
 * `delete()`, which deletes its endpoint only after the trigger's grace period for a republish
 * (`TRIGGER_DELAYS.republishGraceSeconds`): until then the event would be delivered there too.
 */
async function emitToTestListener(triggerWebhookId: string): Promise<string> {
	const testUrl = `/webhook-test/${triggerWebhookId}/`;
	await eventually(
		`the endpoint at the editor's test URL (${testUrl}), and no earlier listener's`,
		async () => await world.control.endpoints(),
		(endpoints) => endpoints.length === 1 && endpoints[0].url.includes(testUrl),
		{
			timeoutMs: 60_000,
			intervalMs: 250,
			describe: (endpoints) => JSON.stringify(endpoints.map((e) => e.url)),
		},
	);
	const { event } = await world.control.emitEvent(EVENT_TYPE);
	const deliveries = (await world.control.settleDeliveries()).filter(
		(delivery) => delivery.event_id === event.id,
	);
	expect(deliveries.map((delivery) => [delivery.status, delivery.last_response_status])).toEqual([
		['delivered', 200],
	]);
	return event.id;
}

/** The workflow's one execution, once n8n has finished it. */
async function onlyExecution(workflowId: string): Promise<Execution> {
	await world.client.waitForExecutions(workflowId, 1, 60_000);
	const executions = await world.client.settledExecutions(workflowId, { timeoutMs: 60_000 });
	expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([
		['manual', 'success'],
	]);
	return executions[0];
}

/** The items a node output in an execution's only run of it. */
function itemsOf(execution: Execution, nodeName: string): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	expect(runs).toHaveLength(1);
	return (runs[0].data?.main[0] ?? []).map((item) => item.json);
}

/** The trigger's output panel shows exactly this event's item, as received in the editor. */
async function expectEventInOutputPanel(page: Page, eventId: string): Promise<void> {
	const output = page.locator('[data-test-id="output-panel"]');
	// the run's end: an event's item, or the panel's word for an empty output
	const anEvent = output.getByText(/^evt_[0-9a-f]+$/);
	const noOutput = output.getByText('No output data returned');
	await anEvent.or(noOutput).first().waitFor({ state: 'visible' });
	if (await noOutput.isVisible()) {
		throw new Error(
			`The trigger's output panel shows no item for ${eventId}: "No output data returned"`,
		);
	}
	const rows = await outputTableRows(page);
	expect(rows).toEqual([
		expect.objectContaining({
			id: eventId,
			type: EVENT_TYPE,
			received_in: 'editor',
			sample_event: 'false',
		}),
	]);
}

test(`"${words.listenButton}" in the trigger's panel: the emitted event's item shows in its output, from one test execution`, async () => {
	const definition = timesheetApprovedWorkflow(world.credential);
	const workflow = await world.client.createWorkflow(definition);
	let eventId = '';

	await inEditor('panel', async (page) => {
		await openWorkflow(page, world, workflow.id, TRIGGER);
		const panel = await openNodePanel(page, TRIGGER);
		await expect(panel.locator('[data-test-id="output-panel"]').innerText()).resolves.not.toMatch(
			/evt_/,
		);
		const button = panel.locator('[data-test-id="node-execute-button"]').first();
		expect((await button.innerText()).trim()).toBe(words.listenButton);

		const waiting = waitingForTestEvent(page, workflow.id);
		await button.click();
		await waiting;
		await panel
			.locator('[data-test-id="trigger-listening"]')
			.getByText('Listening for test event')
			.waitFor({ state: 'visible' });
		eventId = await emitToTestListener(definition.triggerWebhookId);

		await expectEventInOutputPanel(page, eventId);
		// the picture: every field of the item, in the JSON view
		const output = panel.locator('[data-test-id="output-panel"]');
		await output.locator('[data-test-id="radio-button-json"]').click();
		await output.getByText(`"${eventId}"`).first().waitFor({ state: 'visible' });
		expect(await output.innerText()).toMatch(/"received_in":\s*"editor"/);
		mkdirSync(RESULTS_FOLDER, { recursive: true });
		await page.screenshot({ path: OUTPUT_PICTURE });
		console.log(`The output panel with ${eventId}: ${OUTPUT_PICTURE}`);
	});

	const execution = await onlyExecution(workflow.id);
	// the run the panel's button asks for stops at the trigger
	expect(Object.keys(execution.data!.resultData.runData)).toEqual([TRIGGER]);
	const items = itemsOf(execution, TRIGGER);
	expect(items.map((item) => item.id)).toEqual([eventId]);
	expect(items[0]).toMatchObject({ type: EVENT_TYPE, received_in: 'editor', sample_event: false });
}, 300_000);

test('"Execute workflow" on the canvas: the workflow waits for an event, then runs it from the trigger through the next node', async () => {
	const definition = timesheetApprovedWorkflow(world.credential);
	const workflow = await world.client.createWorkflow(definition);

	await inEditor('canvas', async (page) => {
		await openWorkflow(page, world, workflow.id, TRIGGER);
		const button = page.locator('[data-test-id="execute-workflow-button"]').first();
		expect((await button.innerText()).trim()).toBe('Execute workflow');

		const waiting = waitingForTestEvent(page, workflow.id);
		await button.click();
		await waiting;
		await page
			.getByText(/Waiting for you to create an event in/)
			.first()
			.waitFor({ state: 'visible' });
		const eventId = await emitToTestListener(definition.triggerWebhookId);

		// what n8n ran first: an empty trigger output would leave the canvas waiting in vain
		const execution = await onlyExecution(workflow.id);
		const items = itemsOf(execution, TRIGGER);
		expect(items.map((item) => item.id)).toEqual([eventId]);
		expect(items[0]).toMatchObject({ type: EVENT_TYPE, received_in: 'editor' });
		expect(itemsOf(execution, SUMMARY)).toEqual([expect.objectContaining({ event_id: eventId })]);

		await canvasNode(page, SUMMARY)
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ state: 'visible' });
		await openNodePanel(page, TRIGGER);
		await expectEventInOutputPanel(page, eventId);
	});
}, 300_000);
