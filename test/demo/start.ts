/**
 * `npm start`: the sandbox API and a real n8n 2.8.4 with this package installed, an owner account,
 * the credential "Workforce Management (sandbox)" and the example workflows, all on loopback.
 * Ctrl-C stops everything.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

import { DEFAULT_OWNER, N8N_VERSION, ensureN8nInstalled } from '../support/n8n';
import { E2eWorld } from '../support/world';
import { DEMO_FOLDER, DEMO_LOG, DEMO_STATE_FILE, DEMO_TARGET, type DemoState } from './state';
import {
	SIGNUP_FORM_PATH,
	signupFormWorkflow,
	timesheetApprovedWorkflow,
	timesheetLookupWorkflow,
	verifyNewMembersWorkflow,
} from './workflows';

const PREFERRED_N8N_PORT = 5678;
const PREFERRED_SANDBOX_PORT = 4010;

async function isPortFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const probe = createServer();
		probe.once('error', () => resolve(false));
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
}

/** The usual port when it is free (so URLs look familiar), any free port otherwise. */
async function portOrAnyFree(port: number): Promise<number> {
	return (await isPortFree(port)) ? port : 0;
}

async function main(): Promise<void> {
	ensureN8nInstalled();
	rmSync(DEMO_FOLDER, { recursive: true, force: true });
	mkdirSync(DEMO_FOLDER, { recursive: true });

	console.log(
		`Building and packing the package, starting the sandbox and n8n ${N8N_VERSION} (about 30 s)...`,
	);
	const world = await E2eWorld.start({
		target: DEMO_TARGET,
		workFolder: DEMO_FOLDER,
		sandboxPort: await portOrAnyFree(PREFERRED_SANDBOX_PORT),
		n8nPort: await portOrAnyFree(PREFERRED_N8N_PORT),
		onN8nOutput: (chunk) => appendFileSync(DEMO_LOG, chunk),
	});

	let stopping = false;
	const stop = async (reason: string, exitCode = 0) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${reason}: stopping n8n (pid ${world.n8n.pid}) and the sandbox...`);
		rmSync(DEMO_STATE_FILE, { force: true });
		await world.stop();
		console.log('Stopped.');
		process.exit(exitCode);
	};
	process.on('SIGINT', () => void stop('Ctrl-C'));
	process.on('SIGTERM', () => void stop('SIGTERM'));

	try {
		const seeded = await world.control.seedWorld();
		const workflows = {
			signupForm: await world.client.createWorkflow(signupFormWorkflow(world.credential)),
			timesheetApproved: await world.client.createWorkflow(
				timesheetApprovedWorkflow(world.credential),
			),
			timesheetLookup: await world.client.createWorkflow(timesheetLookupWorkflow(world.credential)),
		};
		for (const workflow of Object.values(workflows)) {
			await world.client.activateWorkflow(workflow.id);
		}
		// inactive: both of our nodes on one canvas, to open and explore
		await world.client.createWorkflow(verifyNewMembersWorkflow(world.credential));

		const state: DemoState = {
			pid: process.pid,
			n8nPid: world.n8n.pid,
			n8nUrl: world.n8n.url,
			n8nApiKey: world.n8nApiKey,
			sandboxOrigin: world.sandbox.origin,
			target: DEMO_TARGET,
			workflows: {
				signupForm: workflows.signupForm.id,
				timesheetApproved: workflows.timesheetApproved.id,
				timesheetLookup: workflows.timesheetLookup.id,
			},
		};
		writeFileSync(DEMO_STATE_FILE, JSON.stringify(state, null, 2));

		console.log(
			[
				'',
				'Workforce Management demo is running (everything on 127.0.0.1, nothing leaves this machine).',
				'',
				`  n8n editor     ${world.n8n.url}`,
				`  login          ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`,
				`  sign-up form   ${world.n8n.url}/form/${SIGNUP_FORM_PATH}  (creates a member through the node)`,
				`  sandbox API    ${world.sandbox.baseUrl}  (key ${world.apiKey}, credential "${world.credential.name}")`,
				`  organization   Acme Staffing (sandbox): ${seeded.members} members, ${seeded.customers} customers, ${seeded.sites} sites`,
				'',
				'  Workflows: "Sign-up form → create member", "On timesheet approved → summary" and',
				'             "On timesheet approved → member and customer" (active),',
				'             "On member created → verify member" (inactive, to explore)',
				'',
				'  Emit an event into the demo:   npm run demo:emit -- timesheet.approved',
				`  n8n's log:                     ${DEMO_LOG}`,
				'',
				'Press Ctrl-C to stop.',
			].join('\n'),
		);
	} catch (error) {
		await stop(`Setting up the demo failed: ${(error as Error).message}`, 1);
	}
}

main().catch((error: Error) => {
	console.error(`The demo could not start: ${error.message}`);
	process.exit(1);
});
