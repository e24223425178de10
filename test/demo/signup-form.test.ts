/**
 * The demo's sign-up form as a person uses it, in Debian's Chromium, on a real n8n (the line
 * `npm start` opens unless N8N_VERSION says otherwise): the page shown after "Sign up" tells what
 * the Create member node did, the sandbox holds the member it made, and a sign-up that created no
 * member is an error in n8n's Executions list. The API is made to fail as the README tells a
 * newcomer: `npm run demo:fault -- 500`, then `npm run demo:fault -- off`, run through npm against
 * a demo state file naming this test's n8n and sandbox.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { Browser, Page } from 'playwright-core';

import { PACKAGE_ROOT } from '../../harness/constants';
import type { Execution } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import type { RecordedRequest } from '../../harness/sandbox-control';
import { E2eWorld } from '../../harness/world';
import { launchChromium } from '../../demo/pictures/capture';
import { canvasNode, openEditorPage, openWorkflow } from '../../demo/pictures/editor';
import { DEMO_TARGET, demoStateOf } from '../../demo/state';
import {
	SIGNUP_FAILED_ERROR,
	SIGNUP_FORM_PATH,
	SIGNUP_PAGES,
	signupFormWorkflow,
	timesheetLookupWorkflow,
} from '../../demo/workflows';

const PAGE_TIMEOUT_MS = 30_000;
/**
 * Outlasts any test's named waits (pages 30 s each, the editor's 90 s, an execution's 20 s, the
 * demo's commands), so a slow machine fails a wait by its name, not by jest's 60 s default.
 */
jest.setTimeout(300_000);
const execFileAsync = promisify(execFile);
/** The demo's state file for this test's n8n and sandbox, so the demo's commands reach them. */
const demoFolder = mkdtempSync(join(tmpdir(), 'wfm-signup-demo-'));
/** What a person and the operator saw, kept for a look (test-results/ is not committed). */
const SCREENSHOTS = join(PACKAGE_ROOT, 'test-results', 'pictures');

let world: E2eWorld;
let browser: Browser;
let workflowId: string;

beforeAll(async () => {
	world = await E2eWorld.start({ target: DEMO_TARGET });
	const workflow = await world.client.createWorkflow(signupFormWorkflow(world.credential));
	workflowId = workflow.id;
	await world.client.activateWorkflow(workflow.id);
	// what `npm start` writes for the demo's commands; this world runs the sign-up workflow alone
	const state = demoStateOf(world, `${world.n8n.url}/form/${SIGNUP_FORM_PATH}`, {
		signupForm: workflow.id,
		timesheetApproved: '',
		timesheetLookup: '',
	});
	writeFileSync(join(demoFolder, 'state.json'), JSON.stringify(state));
	browser = await launchChromium();
}, 450_000);

afterAll(async () => {
	await browser?.close();
	await world?.stop();
	rmSync(demoFolder, { recursive: true, force: true });
}, 60_000);

/** `npm run demo:fault -- <argument>` in a terminal beside the running demo; what it printed. */
async function demoFault(argument: string): Promise<string> {
	const { stdout } = await execFileAsync('npm', ['run', 'demo:fault', '--', argument], {
		cwd: PACKAGE_ROOT,
		env: { ...process.env, WFM_DEMO_FOLDER: demoFolder },
	});
	return stdout;
}

beforeEach(async () => {
	await world.control.clearRequests();
});

/** Fills the form as a person does, presses "Sign up" and answers the page that follows. */
async function signUp(values: { Name: string; Email?: string; Phone?: string }): Promise<Page> {
	const page = await browser.newPage();
	page.setDefaultTimeout(PAGE_TIMEOUT_MS);
	await page.goto(`${world.n8n.url}/form/${SIGNUP_FORM_PATH}`);
	for (const [label, value] of Object.entries(values)) {
		await page.getByLabel(label, { exact: true }).fill(value);
	}
	await page.getByRole('button', { name: 'Sign up' }).click();
	return page;
}

async function memberCreations(): Promise<RecordedRequest[]> {
	return (await world.control.requests()).filter(
		(request) => request.method === 'POST' && request.path === '/api/v1/members',
	);
}

async function memberNamed(businessName: string): Promise<Record<string, unknown> | undefined> {
	const { data } = await world.control.api<{ data: Array<Record<string, unknown>> }>(
		world.apiKey,
		'GET',
		'/members',
	);
	return data.find((member) => member.business_name === businessName);
}

/** The finished execution of the sign-up of `businessName`, as n8n's Executions list has it. */
async function finishedSignup(businessName: string): Promise<Execution> {
	const ofThisSignup = (executions: Execution[]) =>
		executions.find(
			(execution) =>
				execution.data?.resultData.runData['Sign-up form']?.[0]?.data?.main[0]?.[0]?.json.Name ===
				businessName,
		);
	const executions = await eventually(
		`a finished execution for "${businessName}"`,
		() => world.client.listExecutions(workflowId),
		(found) => ['success', 'error'].includes(ofThisSignup(found)?.status ?? ''),
		{ describe: (found) => JSON.stringify(found.map(({ id, status }) => ({ id, status }))) },
	);
	return ofThisSignup(executions)!;
}

function errorMessage(execution: Execution): string | undefined {
	return (execution.data?.resultData as { error?: { message?: string } }).error?.message;
}

test('a valid sign-up shows "You are signed up" once the member exists', async () => {
	const page = await signUp({
		Name: 'Riverside Care Services',
		Email: 'dana@riverside.example',
		Phone: '+1 555 0100',
	});

	await page.getByText(SIGNUP_PAGES.created.title).waitFor();
	expect(await page.locator('body').innerText()).toContain(SIGNUP_PAGES.created.message);
	expect(await memberNamed('Riverside Care Services')).toMatchObject({
		status: 'draft',
		contact: { email: 'dana@riverside.example', phone: '+1 555 0100' },
	});
	expect((await finishedSignup('Riverside Care Services')).status).toBe('success');
	await page.close();
});

test('a phone that is not a phone number shows what to fix, and creates no member', async () => {
	const page = await signUp({ Name: 'Call Me Care', Phone: 'call me after 5' });

	await page.getByText(SIGNUP_PAGES.refused.title).waitFor();
	const text = await page.locator('body').innerText();
	expect(text).toContain(
		'The "Phone" field must be a phone number like +1 555 0100 (5 to 15 digits), but is "call me after 5". Go back, correct it and sign up again.',
	);
	expect(text).not.toContain('(item 0)');
	expect(text).not.toContain(SIGNUP_PAGES.created.title);
	expect(await memberCreations()).toEqual([]);
	expect(await memberNamed('Call Me Care')).toBeUndefined();
	const execution = await finishedSignup('Call Me Care');
	expect(execution.status).toBe('error');
	expect(errorMessage(execution)).toContain(`${SIGNUP_FAILED_ERROR}: The "Phone" field`);
	await page.close();
});

test('with `npm run demo:fault -- 500`, the page says the service could not sign them up, and the execution is an error', async () => {
	const faultOn = await demoFault('500');
	expect(faultOn).toContain(
		'The sandbox API now answers 500 (internal error) to every request, until `npm run demo:fault -- off`.',
	);
	expect(faultOn).toContain(`Try the sign-up form: ${world.n8n.url}/form/${SIGNUP_FORM_PATH}`);

	const page = await signUp({ Name: 'Harbour Home Care', Phone: '+1 555 0142' });

	await page.getByText(SIGNUP_PAGES.failed.title).waitFor();
	const text = await page.locator('body').innerText();
	expect(text).toContain(SIGNUP_PAGES.failed.message);
	for (const internal of ['/members', '500', 'POST', SIGNUP_PAGES.refused.title]) {
		expect(text).not.toContain(internal);
	}
	// the API answers again, for the reads below and the next sign-ups
	expect(await demoFault('off')).toMatch(
		/The sandbox API answers as usual again \(it failed [1-9]\d* requests?\)\./,
	);
	expect(await world.control.pendingFaults()).toEqual([]);
	expect(await memberCreations()).toHaveLength(1);
	expect(await memberNamed('Harbour Home Care')).toBeUndefined();
	const execution = await finishedSignup('Harbour Home Care');
	expect(execution.status).toBe('error');
	expect(errorMessage(execution)).toContain(
		`${SIGNUP_FAILED_ERROR}: The Workforce Management API failed with status 500`,
	);
	// the page stays as it was once the execution has ended in the error
	expect(await page.locator('body').innerText()).toContain(SIGNUP_PAGES.failed.message);
	await page.screenshot({ path: join(SCREENSHOTS, 'signup-api-failed-page.png') });
	await page.close();

	const editor = await openEditorPage(browser, world, { width: 1280, height: 720 }, 1);
	await editor.goto(`${world.n8n.url}/home/executions`);
	// the Executions list shows this sign-up's run as an error
	await editor
		.getByRole('row')
		.filter({ has: editor.getByRole('cell', { name: execution.id, exact: true }) })
		.getByText('Error', { exact: true })
		.waitFor();
	await editor.screenshot({ path: join(SCREENSHOTS, 'signup-api-failed-execution.png') });
	await editor.context().close();
});

test('a name-only sign-up creates a member without empty contact details', async () => {
	const page = await signUp({ Name: 'Name Only Nursing' });

	await page.getByText(SIGNUP_PAGES.created.title).waitFor();
	const [creation] = await memberCreations();
	expect(creation.body).toEqual({ business_name: 'Name Only Nursing' });
	expect(await memberNamed('Name Only Nursing')).toMatchObject({
		contact: { email: null, phone: null },
	});
	await page.close();
});

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
	return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The demo's published workflows with a trigger, as `npm start` imports them: their id. */
const demoCanvases: Array<[string, string, () => Promise<string>]> = [
	['Sign-up form → create member', 'Sign-up form', async () => workflowId],
	[
		'On timesheet approved → member and customer',
		'On timesheet approved',
		async () => {
			const workflow = await world.client.createWorkflow(timesheetLookupWorkflow(world.credential));
			await world.client.activateWorkflow(workflow.id);
			return workflow.id;
		},
	],
];

test.each(demoCanvases)(
	'the published demo workflow "%s" opens with "%s" in view, clear of n8n\'s Production Checklist',
	async (_name, triggerName, publish) => {
		const id = await publish();
		const viewport = { width: 1280, height: 720 };
		const editor = await openEditorPage(browser, world, viewport, 1);

		await openWorkflow(editor, world, id, triggerName);
		// n8n opens it over the canvas's top left the first time a browser shows a published workflow
		const checklist = editor.getByRole('dialog').filter({ hasText: 'Production Checklist' });
		await checklist.waitFor({ state: 'visible' });
		const inWindow = (box: Box) =>
			box.x >= 0 &&
			box.y >= 0 &&
			box.x + box.width <= viewport.width &&
			box.y + box.height <= viewport.height;
		const { trigger, panel } = await eventually(
			`"${triggerName}" within the window and clear of the Production Checklist`,
			async () => ({
				trigger: await canvasNode(editor, triggerName).boundingBox(),
				panel: await checklist.boundingBox(),
			}),
			(boxes) =>
				boxes.trigger !== null &&
				boxes.panel !== null &&
				inWindow(boxes.trigger) &&
				!overlaps(boxes.trigger, boxes.panel),
			{ timeoutMs: 30_000 },
		);
		expect(inWindow(trigger!)).toBe(true);
		expect(overlaps(trigger!, panel!)).toBe(false);
		await editor.screenshot({
			path: join(SCREENSHOTS, `canvas-${triggerName.replace(/\W+/g, '-')}.png`),
		});
		await editor.context().close();
	},
);
