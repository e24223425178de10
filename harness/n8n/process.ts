/** n8n started headless on loopback, and stopped with its whole process group. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { promisify } from 'node:util';

import { eventually } from '../poll';
import { N8N_LINE, n8nCommand } from './launch';
import { freePort } from './ports';

const STARTUP_TIMEOUT_MS = 180_000;
/**
 * Past n8n's own graceful shutdown (`N8N_GRACEFUL_SHUTDOWN_TIMEOUT`, 30 s): what a test of n8n's stop
 * sees is n8n's doing, not a SIGKILL of ours. At 20 s, a stop at load 18 was cut short and left an
 * execution answered 200 unfinished (trigger-restart.e2e, loaded run 3).
 */
const SHUTDOWN_TIMEOUT_MS = 45_000;
const READY_LINE = 'Editor is now accessible';
/** What a queue-mode process prints once it listens on its port (n8n 2.8 and 2.41 alike). */
const LISTENING_LINE = {
	webhook: (port: number) => `n8n ready on 127.0.0.1, port ${port}`,
	worker: (port: number) => `worker server listening on port ${port}`,
};
/** n8n's words when its port is taken (webhook, worker; `start`: EADDRINUSE). */
const PORT_TAKEN = /EADDRINUSE|is already in use/;
const PORT_TAKEN_ATTEMPTS = 3;
/**
 * n8n checks its database with `SELECT 1` every 2 s and, when one waits longer than 5 s, answers
 * 503 ("Database is not ready!") to every request until one succeeds. On a machine whose two cores
 * run several n8n processes and Postgres clusters at once (end-to-end suites side by side), such a
 * wait is the machine, not the database: the check is given 60 s.
 */
const DB_PING_TIMEOUT_MS = 60_000;

/** Loopback must never go through a proxy, in this process or in n8n. */
const NO_PROXY = ['127.0.0.1', 'localhost', process.env.NO_PROXY].filter(Boolean).join(',');
process.env.NO_PROXY = NO_PROXY;
process.env.no_proxy = NO_PROXY;

export interface N8nStartOptions {
	userFolder: string;
	/** 0 or absent: a free port. Pass the previous port to restart an instance at the same URL. */
	port?: number;
	/** Extra environment, e.g. `WEBHOOK_URL`. */
	env?: Record<string, string>;
	/** Called with every chunk n8n prints (the demo forwards it to a log file). */
	onOutput?: (chunk: string) => void;
	/**
	 * `start` (default; ready when the editor is up and active workflows are registered), or a
	 * queue-mode `worker` / `webhook` process, ready when `<url>/healthz/readiness` answers 200
	 * (the worker's health server listens on `port`).
	 */
	command?: 'start' | 'worker' | 'webhook';
	/**
	 * Whether n8n serves its editor (default true, as n8n does): a suite that neither opens it in a
	 * browser nor reads what it serves (`/types/nodes.json`) turns it off. n8n then skips writing the
	 * editor's files into the user folder, which it does at every start: 6.5 of 19.5 s of CPU per
	 * start on 2.41.1, 4 of 10 s on 2.8.4 (idle machine, 2026-12-05). The webhooks, the REST and
	 * public APIs and the executions are the same either way.
	 */
	editor?: boolean;
}

export class N8nInstance {
	private output = '';

	private exited: Promise<number | null>;

	private constructor(
		private readonly child: ChildProcess,
		readonly userFolder: string,
		readonly port: number,
		/** Whether it serves its editor (N8nStartOptions.editor): a restart keeps it. */
		readonly editor: boolean,
		onOutput?: (chunk: string) => void,
	) {
		const collect = (chunk: Buffer) => {
			const text = chunk.toString();
			this.output += text;
			onOutput?.(text);
		};
		child.stdout?.on('data', collect);
		child.stderr?.on('data', collect);
		runningGroups.add(child.pid!);
		this.exited = new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
	}

	/**
	 * Starts `n8n start` in its own process group and resolves when the editor (and webhooks) are up.
	 * A free port found here can be taken by another process before n8n binds it (suites run side
	 * by side): when n8n then fails on EADDRINUSE, it starts again on other free ports.
	 */
	static async start(options: N8nStartOptions): Promise<N8nInstance> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await N8nInstance.startOnce(options);
			} catch (error) {
				const portTaken = PORT_TAKEN.test(String((error as Error).message));
				if (!portTaken || attempt === PORT_TAKEN_ATTEMPTS) throw error;
			}
		}
	}

	private static async startOnce(options: N8nStartOptions): Promise<N8nInstance> {
		const port = options.port || (await freePort());
		const brokerPort = await freePort();
		const command = options.command ?? 'start';
		const editor = options.editor ?? true;
		const launch = n8nCommand(command);
		const child = spawn(launch.file, launch.args, {
			cwd: options.userFolder,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				...launch.env,
				...n8nEnvironment(options.userFolder, port, brokerPort),
				...(command === 'worker'
					? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) }
					: {}),
				...(editor ? {} : { N8N_DISABLE_UI: 'true' }),
				...options.env,
			},
		});
		const startedAt = Date.now();
		const instance = new N8nInstance(child, options.userFolder, port, editor, options.onOutput);
		if (command === 'start') await instance.waitForOutput(READY_LINE, STARTUP_TIMEOUT_MS);
		else await instance.waitUntilReady(LISTENING_LINE[command](port), STARTUP_TIMEOUT_MS);
		recordTiming(command, startedAt);
		return instance;
	}

	get pid(): number {
		return this.child.pid!;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get isRunning(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	/** What n8n has printed so far. */
	get log(): string {
		return this.output;
	}

	/** The production URL n8n serves (and hands to a trigger's create()) for a webhook node. */
	webhookUrl(webhookId: string, path: string): string {
		return `${this.url}/webhook/${webhookId}/${path}`;
	}

	/**
	 * Waits for `text` in n8n's output. A line n8n writes reaches this process through a pipe, on a
	 * loaded machine after the state it reports can already be read over HTTP.
	 */
	async logged(text: string, timeoutMs = 30_000): Promise<void> {
		await eventually(
			`n8n printing "${text}"`,
			async () => this.output,
			(output) => output.includes(text),
			{ timeoutMs, intervalMs: 250, describe: () => `its output:\n${this.tail()}` },
		);
	}

	async waitForOutput(text: string, timeoutMs: number): Promise<void> {
		const startedAt = Date.now();
		while (!this.output.includes(text)) {
			if (!this.isRunning) {
				await this.stop();
				throw new Error(`n8n exited before printing "${text}". Its output:\n${this.tail()}`);
			}
			if (Date.now() - startedAt > timeoutMs) {
				await this.stop();
				throw new Error(
					`n8n did not print "${text}" within ${timeoutMs} ms. Its output:\n${this.tail()}`,
				);
			}
			await new Promise((wake) => setTimeout(wake, 200));
		}
	}

	/**
	 * Waits until n8n printed `listening` (it holds its port) and `/healthz/readiness` answers 200
	 * (database and Redis connected). Readiness alone could be another server's answer: one that
	 * took the port first (ports.ts), while this process exits on EADDRINUSE.
	 */
	private async waitUntilReady(listening: string, timeoutMs: number): Promise<void> {
		const startedAt = Date.now();
		for (;;) {
			const ready =
				this.output.includes(listening) &&
				(await fetch(`${this.url}/healthz/readiness`).then(
					(response) => response.ok,
					() => false,
				));
			if (ready && this.isRunning) return;
			if (!this.isRunning || Date.now() - startedAt > timeoutMs) {
				const what = this.isRunning
					? `was not ready within ${timeoutMs} ms`
					: 'exited before ready';
				await this.stop();
				throw new Error(`n8n ${what}. Its output:\n${this.tail()}`);
			}
			await new Promise((wake) => setTimeout(wake, 250));
		}
	}

	/** Stops n8n and its task runner by process group: SIGTERM, then SIGKILL if it lingers. */
	async stop(): Promise<void> {
		if (!runningGroups.has(this.pid)) return;
		const startedAt = Date.now();
		if (this.isRunning) {
			signalGroup(this.pid, 'SIGTERM');
			const stoppedInTime = await Promise.race([
				this.exited.then(() => true),
				new Promise<boolean>((wake) => setTimeout(() => wake(false), SHUTDOWN_TIMEOUT_MS).unref()),
			]);
			if (!stoppedInTime) {
				signalGroup(this.pid, 'SIGKILL');
				await this.exited;
			}
		}
		// the task runner is in the same group and may outlive the main process by a moment
		signalGroup(this.pid, 'SIGKILL');
		runningGroups.delete(this.pid);
		recordTiming('stop', startedAt);
	}

	tail(lines = 60): string {
		return this.output.split('\n').slice(-lines).join('\n');
	}
}

/**
 * Runs an n8n CLI command (`import:workflow --input=<file>`, …) against a user folder, with the
 * settings a server on it has (the encryption key above all), and returns what it printed.
 */
export async function runN8nCli(userFolder: string, args: string[]): Promise<string> {
	const [command, ...rest] = args;
	const launch = n8nCommand(command);
	const { stdout, stderr } = await promisify(execFile)(launch.file, [...launch.args, ...rest], {
		cwd: userFolder,
		maxBuffer: 32 * 1024 * 1024,
		env: {
			...process.env,
			...launch.env,
			// every n8n process opens the task broker's port, a server on the folder included
			...n8nEnvironment(userFolder, await freePort(), await freePort()),
		},
	});
	return stdout + stderr;
}

/**
 * With `N8N_TIMINGS=<file>` (scripts/test.sh sets it per line), every start and stop of an n8n
 * process appends one line: what, seconds, the test file running (jest's), when it ended.
 */
function recordTiming(what: string, startedAt: number): void {
	const file = process.env.N8N_TIMINGS;
	if (!file) return;
	const testFile = (
		globalThis as { expect?: { getState(): { testPath?: string } } }
	).expect?.getState().testPath;
	const line = [
		what,
		((Date.now() - startedAt) / 1000).toFixed(1),
		testFile ?? '',
		new Date().toISOString(),
	];
	appendFileSync(file, `${line.join('\t')}\n`);
}

/** Process groups of the n8n instances this process started and has not stopped yet. */
const runningGroups = new Set<number>();
// If this process ends without stopping them (a crashed test run), take them along.
process.once('exit', () => runningGroups.forEach((pid) => signalGroup(pid, 'SIGKILL')));

function signalGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
	}
}

function n8nEnvironment(
	userFolder: string,
	port: number,
	brokerPort: number,
): Record<string, string> {
	return {
		N8N_USER_FOLDER: userFolder,
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_ENCRYPTION_KEY: 'wfm-e2e-encryption-key',
		N8N_USER_MANAGEMENT_JWT_SECRET: 'wfm-e2e-jwt-secret',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		[N8N_LINE.dbPingTimeoutVariable]: String(DB_PING_TIMEOUT_MS),
		GENERIC_TIMEZONE: 'UTC',
		// jest sets NODE_ENV=test, which n8n must not see
		NODE_ENV: 'production',
		NO_PROXY,
		no_proxy: NO_PROXY,
	};
}
