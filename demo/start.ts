/**
 * `npm start`: the sandbox API and a real n8n (the newest tested line; `npm start -- --n8n 2.8.4`
 * for another, scripts/n8n/lines.json) with this package installed, an owner account, the
 * credential "Workforce Management (sandbox)" and the example workflows, all on loopback.
 * `npm start -- --queue`: the same, with n8n in queue mode (Postgres, Redis, main, a worker and two
 * webhook processes; see docs/queue-mode.md). Ctrl-C stops everything.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

import { PACKAGE_ROOT } from '../harness/constants';
import {
	DEFAULT_OWNER,
	N8N_LINE,
	N8N_LINES,
	N8N_VERSION,
	ensureN8nInstalled,
	runtimeDescription,
} from '../harness/n8n';
import type { QueueCluster } from '../harness/queue/cluster';
import { E2eWorld, type E2eWorldOptions } from '../harness/world';
import { demoBanner, runtimeLine } from './banner';
import { editorWords } from './editor-words';
import {
	DEMO_FOLDER,
	DEMO_LOG,
	DEMO_PORTS,
	DEMO_STATE_FILE,
	DEMO_TARGET,
	demoStateOf,
} from './state';
import {
	SIGNUP_FORM_PATH,
	signupFormWorkflow,
	timesheetApprovedWorkflow,
	timesheetLookupWorkflow,
	verifyNewMembersWorkflow,
} from './workflows';

/** Which of the two ports the failed start found taken, if that is why it failed. */
function takenPort(error: unknown, ports: { sandboxPort: number; n8nPort: number }) {
	const { code, message } = error as { code?: string; message?: string };
	if (code === 'EADDRINUSE' && ports.sandboxPort !== 0) return 'sandboxPort';
	// n8n logs this line and exits; the harness's error quotes n8n's output
	if (message?.includes(`n8n's port ${ports.n8nPort} is already in use`)) return 'n8nPort';
	return undefined;
}

/**
 * Starts the demo on the usual ports (so URLs look familiar). Each is bound, not probed first (a
 * probe leaves a moment in which another program can take the port): a port found taken is
 * given up for any free one (port 0) and the start is tried again.
 */
async function startOnUsualPorts(options: E2eWorldOptions): Promise<E2eWorld> {
	const ports: { sandboxPort: number; n8nPort: number } = {
		sandboxPort: DEMO_PORTS.sandbox,
		n8nPort: DEMO_PORTS.n8n,
	};
	for (;;) {
		try {
			return await E2eWorld.start({ ...options, ...ports });
		} catch (error) {
			const taken = takenPort(error, ports);
			if (taken === undefined) throw error;
			console.log(`Port ${ports[taken]} is in use: taking a free one instead.`);
			ports[taken] = 0;
		}
	}
}

/** `npm start -- --queue` needs Postgres and Redis too: installed or verified like n8n. */
function ensureQueueServicesInstalled(): void {
	const install = spawnSync('bash', [join(PACKAGE_ROOT, 'scripts', 'install-queue-services.sh')], {
		stdio: 'inherit',
	});
	if (install.status !== 0) throw new Error('Postgres and Redis could not be installed: see above');
}

async function main(): Promise<void> {
	const queue = process.argv.slice(2).includes('--queue');
	const tested = N8N_LINES.map((line) => line.n8n);
	if (!tested.includes(N8N_VERSION)) {
		throw new Error(
			`n8n ${N8N_VERSION} is not a tested line; choose one of ${tested.join(', ')} (npm start -- --n8n <version>)`,
		);
	}
	ensureN8nInstalled();
	if (queue) ensureQueueServicesInstalled();
	rmSync(DEMO_FOLDER, { recursive: true, force: true });
	mkdirSync(DEMO_FOLDER, { recursive: true });

	console.log(
		queue
			? `Building and packing the package, starting the sandbox, Postgres, Redis and ${runtimeDescription()} in queue mode: main, worker, 2 webhook processes (about 1-2 min)...`
			: `Building and packing the package, starting the sandbox and ${runtimeDescription()}, which creates its database and migrates it to the newest schema (about 30 s)...`,
	);
	const world = await startOnUsualPorts({
		target: DEMO_TARGET,
		workFolder: DEMO_FOLDER,
		onN8nOutput: (chunk) => appendFileSync(DEMO_LOG, chunk),
		queue,
	});
	const cluster = world.queue;
	// in queue mode main serves no production webhooks or forms: webhook-1 does
	const publicUrl = cluster ? cluster.webhooks[0].url : world.n8n.url;

	let stopping = false;
	const stop = async (reason: string, exitCode = 0) => {
		if (stopping) return;
		stopping = true;
		const pids = cluster
			? `${cluster.processes.map(([role, instance]) => `${role} ${instance.pid}`).join(', ')}, redis ${cluster.redis.pid}, postgres ${cluster.postgres.pid}`
			: `pid ${world.n8n.pid}`;
		console.log(`\n${reason}: stopping n8n (${pids}) and the sandbox...`);
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

		const state = demoStateOf(world, `${publicUrl}/form/${SIGNUP_FORM_PATH}`, {
			signupForm: workflows.signupForm.id,
			timesheetApproved: workflows.timesheetApproved.id,
			timesheetLookup: workflows.timesheetLookup.id,
		});
		writeFileSync(DEMO_STATE_FILE, JSON.stringify(state, null, 2));
		console.log(
			`\n${demoBanner({
				runtime: runtimeLine(N8N_LINE, N8N_LINE.node ?? process.versions.node, N8N_LINES),
				n8nUrl: world.n8n.url,
				login: DEFAULT_OWNER,
				signupFormUrl: state.signupFormUrl,
				sandboxBaseUrl: world.sandbox.baseUrl,
				apiKey: world.apiKey,
				credentialName: world.credential.name,
				seeded,
				words: editorWords(N8N_VERSION),
				queueLines: cluster ? queueLines(cluster) : undefined,
				n8nLog: shownPath(DEMO_LOG),
			})}`,
		);
	} catch (error) {
		await stop(`Setting up the demo failed: ${(error as Error).message}`, 1);
	}
}

/** A path inside the checkout as npm's scripts see it (relative to it), any other in full. */
function shownPath(path: string): string {
	const inside = relative(PACKAGE_ROOT, path);
	return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

function queueLines(cluster: QueueCluster): string[] {
	const [first, second] = cluster.webhooks;
	return [
		'',
		'  Queue mode     main serves the editor and the API; the worker runs every execution',
		`  webhooks       ${first.url}/webhook/…  (the URL triggers register)  and  ${second.url}/webhook/…`,
		`  worker         health ${cluster.worker.url}/healthz (pid ${cluster.worker.pid})`,
		`  Postgres       127.0.0.1:${cluster.postgres.port} (user ${cluster.postgres.user}, database ${cluster.postgres.database})`,
		`  Redis          127.0.0.1:${cluster.redis.port}`,
	];
}

main().catch((error: Error) => {
	console.error(`The demo could not start: ${error.message}`);
	process.exit(1);
});
