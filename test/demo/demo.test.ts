/**
 * What a newcomer does: `npm start`, open the sign-up form, `npm run demo:emit -- timesheet.approved`,
 * Ctrl-C. Runs the demo's scripts as processes, the way npm runs them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { N8nClient, n8nBinary } from '../support/n8n';
import { PACKAGE_ROOT } from '../support/constants';
import { SandboxControl } from '../support/sandbox-control';
import type { DemoState } from './state';
import { submitSignupForm } from './workflows';

const execFileAsync = promisify(execFile);
const demoFolder = mkdtempSync(join(tmpdir(), 'wfm-demo-'));
const environment = { ...process.env, WFM_DEMO_FOLDER: demoFolder };
const READY_LINE = 'Press Ctrl-C to stop.';

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
	demo = spawn(process.execPath, ['--import', 'tsx', 'test/demo/start.ts'], {
		cwd: PACKAGE_ROOT,
		env: environment,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
	demo.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await waitForOutput(READY_LINE, 240_000);
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
});

test('the sign-up form creates a member in the sandbox', async () => {
	const state = readState();
	const response = await submitSignupForm(state.n8nUrl, {
		name: 'Riverside Care Services',
		email: 'dana@riverside.example',
		phone: '+1 555 0100',
	});
	expect(response.status).toBe(200);

	const n8n = new N8nClient(state.n8nUrl);
	n8n.useApiKey(state.n8nApiKey);
	const [execution] = await n8n.waitForExecutions(state.workflows.signupForm, 1);
	expect(execution.status).toBe('success');
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	const { data: members } = await sandbox.api<{ data: unknown[] }>(
		'wfm_test_acme_all',
		'GET',
		'/members',
	);
	expect(members).toEqual([
		expect.objectContaining({
			business_name: 'Riverside Care Services',
			contact: { email: 'dana@riverside.example', phone: '+1 555 0100' },
		}),
	]);
});

test('npm run demo:emit -- timesheet.approved runs the workflow and shows its result', async () => {
	const { stdout } = await runScript('test/demo/emit.ts', ['timesheet.approved']);

	expect(stdout).toMatch(/Emitted timesheet\.approved \(evt_[0-9a-f]+\)/);
	expect(stdout).toMatch(/: delivered \(n8n answered 200\)/);
	expect(stdout).toMatch(/n8n ran execution \d+: success\./);
	expect(stdout).toMatch(/"summary": "Timesheet [0-9a-f-]+ approved: 7\.5 h worked by member/);
});

test('demo:emit with an unknown event type names the known ones', async () => {
	await expect(runScript('test/demo/emit.ts', ['timesheet.aproved'])).rejects.toThrow(
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
	await expect(runScript('test/demo/emit.ts', ['timesheet.approved'])).rejects.toThrow(
		/not running/,
	);
});
