/**
 * What a newcomer does: `npm start`, open the sign-up form, `npm run demo:emit -- timesheet.approved`,
 * Ctrl-C. Runs the demo's scripts as processes, the way npm runs them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import {
	DEFAULT_OWNER,
	N8N_LINES,
	N8nClient,
	n8nBinary,
	n8nLine,
	nodeOutput,
} from '../../harness/n8n';
import { PACKAGE_ROOT } from '../../harness/constants';
import { SandboxControl } from '../../harness/sandbox-control';
import { buildWorld, WORLD_SIZE } from '../../sandbox/world';
import { SANDBOX_CREDENTIAL_NAME } from '../../harness/world';
import { DEMO_READY_LINE, demoBanner, runtimeLine } from '../../demo/banner';
import { editorWords } from '../../demo/editor-words';
import { DEMO_TARGET, type DemoState } from '../../demo/state';
import { SIGNUP_FORM_PATH, SIGNUP_PAGES, submitSignupForm } from '../../demo/workflows';

const execFileAsync = promisify(execFile);
const demoFolder = mkdtempSync(join(tmpdir(), 'wfm-demo-'));
const environment = { ...process.env, WFM_DEMO_FOLDER: demoFolder };

let demo: ChildProcess;
let output = '';
let exited: Promise<number | null>;

function runScript(script: string, args: string[] = []) {
	return execFileAsync(process.execPath, ['--import', 'tsx', script, ...args], {
		cwd: PACKAGE_ROOT,
		env: environment,
	});
}

async function waitForOutput(text: string, timeoutMs: number): Promise<void> {
	const startedAt = Date.now();
	while (!output.includes(text)) {
		if (demo.exitCode !== null) throw new Error(`The demo exited early:\n${output}`);
		if (Date.now() - startedAt > timeoutMs)
			throw new Error(`The demo did not print "${text}":\n${output}`);
		await new Promise((wake) => setTimeout(wake, 250));
	}
}

function readState(): DemoState {
	return JSON.parse(readFileSync(join(demoFolder, 'state.json'), 'utf8')) as DemoState;
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

beforeAll(async () => {
	n8nBinary(); // fail here, loudly, rather than let the demo install n8n inside a test
	demo = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts'], {
		cwd: PACKAGE_ROOT,
		env: environment,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
	demo.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await waitForOutput(DEMO_READY_LINE, 240_000);
}, 260_000);

afterAll(async () => {
	if (demo && demo.exitCode === null) {
		demo.kill('SIGINT');
		await exited;
	}
	rmSync(demoFolder, { recursive: true, force: true });
}, 60_000);

test('npm start prints the editor URL, the login and the emit command', () => {
	const state = readState();
	expect(output).toContain(`n8n editor     ${state.n8nUrl}`);
	expect(output).toContain('login          owner@example.com / ');
	expect(output).toContain('npm run demo:emit -- timesheet.approved');
	expect(output).toContain('"On timesheet approved → member and customer" (Published)');
	expect(output).toContain(
		`organization   Acme Staffing (sandbox): ${WORLD_SIZE.members} members, ${WORLD_SIZE.customers} customers,`,
	);
});

test('npm start prints the banner the README shows, with the ports and the line it runs', () => {
	const state = readState();
	const line = n8nLine(state.n8nVersion);
	const world = buildWorld(`${DEMO_TARGET.organization}/${DEMO_TARGET.mode}`, '');

	expect(output).toContain(
		demoBanner({
			runtime: runtimeLine(line, line.node ?? process.versions.node, N8N_LINES),
			n8nUrl: state.n8nUrl,
			login: DEFAULT_OWNER,
			signupFormUrl: `${state.n8nUrl}/form/${SIGNUP_FORM_PATH}`,
			sandboxBaseUrl: `${state.sandboxOrigin}/api/v1`,
			apiKey: 'wfm_test_acme_all',
			credentialName: SANDBOX_CREDENTIAL_NAME,
			seeded: { ...WORLD_SIZE, sites: world.sites.length },
			words: editorWords(state.n8nVersion),
			n8nLog: join(demoFolder, 'n8n.log'),
		}),
	);
});

test('each trigger describes its webhook endpoint by its workflow name and id', async () => {
	const state = readState();
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);

	const descriptions = (await sandbox.endpoints()).map((endpoint) => endpoint.description).sort();

	expect(descriptions).toEqual([
		`On timesheet approved → member and customer (n8n workflow ${state.workflows.timesheetLookup})`,
		`On timesheet approved → summary (n8n workflow ${state.workflows.timesheetApproved})`,
	]);
});

test('the sign-up form creates a member in the sandbox and says so', async () => {
	const state = readState();
	const page = await submitSignupForm(state.n8nUrl, {
		name: 'Riverside Care Services',
		email: 'dana@riverside.example',
		phone: '+1 555 0100',
	});

	expect(page).toContain(SIGNUP_PAGES.created.title);
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	const { data: members } = await sandbox.api<{ data: unknown[] }>(
		'wfm_test_acme_all',
		'GET',
		'/members',
	);
	expect(members).toHaveLength(WORLD_SIZE.members + 1);
	expect(members[0]).toMatchObject({
		business_name: 'Riverside Care Services',
		contact: { email: 'dana@riverside.example', phone: '+1 555 0100' },
	});
});

test('npm run demo:emit -- timesheet.approved runs both workflows and prints each execution', async () => {
	const { stdout } = await runScript('demo/emit.ts', ['timesheet.approved']);

	const eventId = /Emitted timesheet\.approved \((evt_[0-9a-f]+)\)/.exec(stdout)?.[1];
	expect(eventId).toBeDefined();
	expect(stdout).toContain('Its data is an example');
	expect(stdout).toContain('The sandbox delivered it to 2 webhook endpoints:');
	expect(stdout).toContain(
		'  published workflow "On timesheet approved → summary": delivered (n8n answered 200)',
	);
	expect(stdout).toContain(
		'  published workflow "On timesheet approved → member and customer": delivered (n8n answered 200)',
	);
	expect(stdout).toContain(
		`n8n ran 2 executions for ${eventId}: 2 in published workflows, 0 in the editor.`,
	);
	expect(stdout).toMatch(
		/execution \d+ of "On timesheet approved → summary" \(published workflow\): success\./,
	);
	expect(stdout).toMatch(
		/execution \d+ of "On timesheet approved → member and customer" \(published workflow\): success\./,
	);
	expect(stdout).toMatch(/"summary": "Timesheet [0-9a-f-]+ approved: 7\.5 h worked by member/);
});

test('with the editor waiting for an event too, what demo:emit prints adds up: 3 deliveries, 3 executions', async () => {
	const state = readState();
	const words = editorWords(state.n8nVersion);
	const n8n = new N8nClient(state.n8nUrl);
	await n8n.login();
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	await n8n.listenForTestEvent(state.workflows.timesheetApproved, 'On timesheet approved');
	const startedAt = Date.now();
	while ((await sandbox.endpoints()).length < 3 && Date.now() - startedAt < 20_000) {
		await new Promise((wake) => setTimeout(wake, 250));
	}

	const { stdout } = await runScript('demo/emit.ts', ['timesheet.approved']);

	const eventId = /\((evt_[0-9a-f]+)\)/.exec(stdout)![1];
	expect(stdout).toContain('The sandbox delivered it to 3 webhook endpoints:');
	expect(stdout).toMatch(
		new RegExp(
			`  the editor \\(${words.listenButton} in "On timesheet approved → summary"\\): (delivered \\(n8n answered 200\\)|sent; n8n removed this endpoint after its one run)`,
		),
	);
	expect(stdout).toContain(
		`n8n ran 3 executions for ${eventId}: 2 in published workflows, 1 in the editor (${words.listenButton} on the trigger).`,
	);
	expect(stdout).toMatch(
		new RegExp(
			`execution \\d+ of "On timesheet approved → summary" \\(in the editor: ${words.listenButton}\\): success\\.`,
		),
	);
	expect(stdout).not.toContain('Warning');
});

test('the emitted timesheet names a real member and customer: Trigger → Member Get → Customer Get succeeds', async () => {
	const state = readState();
	const { stdout } = await runScript('demo/emit.ts', ['timesheet.approved']);
	const eventId = /\((evt_[0-9a-f]+)\)/.exec(stdout)![1];

	const n8n = new N8nClient(state.n8nUrl);
	n8n.useApiKey(state.n8nApiKey);
	const execution = (await n8n.listExecutions(state.workflows.timesheetLookup)).find(
		(candidate) => nodeOutput(candidate, 'On timesheet approved').id === eventId,
	);
	expect(execution?.status).toBe('success');
	const timesheet = nodeOutput(execution!, 'On timesheet approved').data as Record<string, string>;
	const member = nodeOutput(execution!, 'Get member');
	const customer = nodeOutput(execution!, 'Get customer');
	expect(member).toMatchObject({ id: timesheet.member_id, business_name: expect.any(String) });
	expect(customer).toMatchObject({ id: timesheet.customer_id, name: 'Northwind Health' });
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	const site = await sandbox.api<{ customer_id: string }>(
		'wfm_test_acme_all',
		'GET',
		`/sites/${timesheet.site_id}`,
	);
	expect(site.customer_id).toBe(customer.id);
});

test('demo:emit --data merges into the example payload', async () => {
	const { stdout } = await runScript('demo/emit.ts', [
		'timesheet.approved',
		'--data',
		'{"hours_worked": 9}',
	]);

	expect(stdout).toMatch(
		/"summary": "Timesheet [0-9a-f-]{36} approved: 9 h worked by member [0-9a-f-]{36}"/,
	);
});

test('demo:emit with an unknown event type names the known ones', async () => {
	await expect(runScript('demo/emit.ts', ['timesheet.aproved'])).rejects.toThrow(
		/type must be one of: .*timesheet\.approved/,
	);
});

test('Ctrl-C stops n8n and the sandbox', async () => {
	const state = readState();
	expect(isRunning(state.n8nPid)).toBe(true);

	demo.kill('SIGINT');

	expect(await exited).toBe(0);
	expect(output).toContain('Stopped.');
	expect(isRunning(state.n8nPid)).toBe(false);
	await expect(fetch(state.n8nUrl)).rejects.toThrow();
	await expect(fetch(state.sandboxOrigin)).rejects.toThrow();
	await expect(runScript('demo/emit.ts', ['timesheet.approved'])).rejects.toThrow(/not running/);
});
