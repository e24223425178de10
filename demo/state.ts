/** Where `npm start` leaves what `npm run demo:emit` needs to reach the running demo. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_ROOT } from '../harness/constants';
import { N8N_VERSION } from '../harness/n8n';
import type { SandboxTarget } from '../harness/sandbox-control';
import type { E2eWorld } from '../harness/world';

/** `.demo/` in the checkout; WFM_DEMO_FOLDER moves it (the demo's own test does). */
export const DEMO_FOLDER = process.env.WFM_DEMO_FOLDER ?? join(PACKAGE_ROOT, '.demo');
export const DEMO_STATE_FILE = join(DEMO_FOLDER, 'state.json');
export const DEMO_LOG = join(DEMO_FOLDER, 'n8n.log');
/** The ports the demo takes when they are free (so URLs look familiar); else any free ones. */
export const DEMO_PORTS = { n8n: 5678, sandbox: 4010 } as const;
/** The demo works in Acme's sandbox (test-mode) organization. */
export const DEMO_TARGET: SandboxTarget = { organization: 'acme', mode: 'test' };

export interface DemoState {
	pid: number;
	n8nPid: number;
	n8nUrl: string;
	/** The n8n line the demo runs, for the words of its editor (editor-words.ts). */
	n8nVersion: string;
	n8nApiKey: string;
	/** The sign-up form's address (in queue mode, on a webhook process). */
	signupFormUrl: string;
	sandboxOrigin: string;
	target: SandboxTarget;
	workflows: { signupForm: string; timesheetApproved: string; timesheetLookup: string };
}

/** What the demo's commands need of a started world, with this process as the demo's. */
export function demoStateOf(
	world: E2eWorld,
	signupFormUrl: string,
	workflows: DemoState['workflows'],
): DemoState {
	return {
		pid: process.pid,
		n8nPid: world.n8n.pid,
		n8nUrl: world.n8n.url,
		n8nVersion: N8N_VERSION,
		n8nApiKey: world.n8nApiKey,
		signupFormUrl,
		sandboxOrigin: world.sandbox.origin,
		target: DEMO_TARGET,
		workflows,
	};
}

export function readDemoState(): DemoState {
	if (!existsSync(DEMO_STATE_FILE)) {
		throw new Error(
			'The demo is not running: start it with `npm start` (in another terminal) first.',
		);
	}
	const state = JSON.parse(readFileSync(DEMO_STATE_FILE, 'utf8')) as DemoState;
	try {
		process.kill(state.pid, 0);
	} catch {
		throw new Error(
			`The demo (pid ${state.pid}) is no longer running: start it again with \`npm start\`.`,
		);
	}
	return state;
}
