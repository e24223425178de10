/**
 * A real n8n 2.8.4 for end-to-end tests, the demo and the benchmarks: our package installed the way
 * n8n installs community packages, n8n started headless on loopback, and a small client for the
 * REST and public API calls a user's clicks would make.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const N8N_VERSION = process.env.N8N_VERSION ?? '2.8.4';
export const N8N_CACHE_DIR =
	process.env.N8N_CACHE_DIR ??
	join(homedir(), '.cache', 'n8n-nodes-workforce-management', `n8n-${N8N_VERSION}`);
export const PACKAGE_ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-workforce-management';
export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.workforceManagement`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.workforceManagementTrigger`;
export const CREDENTIAL_TYPE = 'workforceManagementApi';

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Workforce-Demo-1',
};
export type Owner = typeof DEFAULT_OWNER;

const STARTUP_TIMEOUT_MS = 180_000;
const SHUTDOWN_TIMEOUT_MS = 20_000;
const READY_LINE = 'Editor is now accessible';

/** Loopback must never go through a proxy, in this process or in n8n. */
const NO_PROXY = ['127.0.0.1', 'localhost', process.env.NO_PROXY].filter(Boolean).join(',');
process.env.NO_PROXY = NO_PROXY;
process.env.no_proxy = NO_PROXY;

/** The n8n binary of the cached install; throws (never skips) when `npm run e2e:install` has not run. */
export function n8nBinary(): string {
	const binary = join(N8N_CACHE_DIR, 'node_modules', '.bin', 'n8n');
	if (!existsSync(binary) || !existsSync(join(N8N_CACHE_DIR, '.installed'))) {
		throw new Error(
			`n8n ${N8N_VERSION} is not installed in ${N8N_CACHE_DIR}. Run \`npm run e2e:install\` first ` +
				'(the end-to-end tests need a real n8n; the first install takes 5-10 minutes).',
		);
	}
	return binary;
}

/**
 * Installs n8n into its cache folder, or proves the cached install works and repairs it when it
 * does not (scripts/install-n8n.sh), printing its progress. For the demo and the benchmarks;
 * tests only call `n8nBinary()`, so they never install anything themselves.
 */
export function ensureN8nInstalled(): void {
	const install = spawnSync('bash', [join(PACKAGE_ROOT, 'scripts', 'install-n8n.sh')], {
		cwd: PACKAGE_ROOT,
		stdio: 'inherit',
		env: { ...process.env, N8N_VERSION, N8N_CACHE_DIR },
	});
	if (install.status !== 0) {
		throw new Error(`n8n ${N8N_VERSION} could not be installed: see the message above`);
	}
}

export async function freePort(): Promise<number> {
	return await new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				if (address && typeof address === 'object') resolvePort(address.port);
				else reject(new Error('Could not read the port of a probe server'));
			});
		});
	});
}

function newestModification(path: string): number {
	const stats = statSync(path);
	if (!stats.isDirectory()) return stats.mtimeMs;
	return readdirSync(path).reduce(
		(newest, entry) => Math.max(newest, newestModification(join(path, entry))),
		stats.mtimeMs,
	);
}

/** Runs `npm run build` unless dist/ is newer than every source file. */
export async function ensureBuilt(): Promise<void> {
	const dist = join(PACKAGE_ROOT, 'dist');
	const sources = ['nodes', 'credentials', 'package.json'].map((entry) =>
		join(PACKAGE_ROOT, entry),
	);
	const sourcesChanged = Math.max(...sources.filter(existsSync).map(newestModification));
	if (existsSync(dist) && newestModification(dist) >= sourcesChanged) return;
	await execFileAsync('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, maxBuffer: 32 * 1024 * 1024 });
}

/** `npm pack`s the built package into `destination` and returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
	mkdirSync(destination, { recursive: true });
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--json', '--pack-destination', destination],
		{ cwd: PACKAGE_ROOT, maxBuffer: 32 * 1024 * 1024 },
	);
	const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * Creates a fresh n8n user folder with the package installed as a community package:
 * `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-workforce-management`.
 */
export async function createUserFolder(options: {
	tarball: string;
	parent?: string;
}): Promise<string> {
	const parent = options.parent ?? tmpdir();
	mkdirSync(parent, { recursive: true });
	const userFolder = mkdtempSync(join(parent, 'n8n-user-'));
	const nodesFolder = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(
		join(nodesFolder, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	await execFileAsync(
		'npm',
		[
			'install',
			'--omit=dev',
			'--omit=peer',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			options.tarball,
		],
		{ cwd: nodesFolder, maxBuffer: 32 * 1024 * 1024 },
	);
	return userFolder;
}

/** build (when stale) → pack → fresh user folder with the package installed. */
export async function prepareUserFolder(parent?: string): Promise<string> {
	await ensureBuilt();
	const workFolder = mkdtempSync(join(parent ?? tmpdir(), 'wfm-e2e-'));
	const tarball = await packPackage(join(workFolder, 'pack'));
	return await createUserFolder({ tarball, parent: workFolder });
}

export interface N8nStartOptions {
	userFolder: string;
	/** 0 or absent: a free port. Pass the previous port to restart an instance at the same URL. */
	port?: number;
	/** Extra environment, e.g. `WEBHOOK_URL`. */
	env?: Record<string, string>;
	/** Called with every chunk n8n prints (the demo forwards it to a log file). */
	onOutput?: (chunk: string) => void;
}

export class N8nInstance {
	private output = '';

	private exited: Promise<number | null>;

	private constructor(
		private readonly child: ChildProcess,
		readonly userFolder: string,
		readonly port: number,
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

	/** Starts `n8n start` in its own process group and resolves when the editor (and webhooks) are up. */
	static async start(options: N8nStartOptions): Promise<N8nInstance> {
		const binary = n8nBinary();
		const port = options.port || (await freePort());
		const brokerPort = await freePort();
		const child = spawn(binary, ['start'], {
			cwd: options.userFolder,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				...n8nEnvironment(options.userFolder, port, brokerPort),
				...options.env,
			},
		});
		const instance = new N8nInstance(child, options.userFolder, port, options.onOutput);
		await instance.waitForOutput(READY_LINE, STARTUP_TIMEOUT_MS);
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

	/** Stops n8n and its task runner by process group: SIGTERM, then SIGKILL if it lingers. */
	async stop(): Promise<void> {
		if (!runningGroups.has(this.pid)) return;
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
	}

	tail(lines = 60): string {
		return this.output.split('\n').slice(-lines).join('\n');
	}
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
		GENERIC_TIMEZONE: 'UTC',
		// jest sets NODE_ENV=test, which n8n must not see
		NODE_ENV: 'production',
		NO_PROXY,
		no_proxy: NO_PROXY,
	};
}

// ---------------------------------------------------------------------------------------------
// REST (cookie, what the editor uses) and public API (API key) client

export interface CredentialData {
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowDefinition {
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	data?: {
		resultData: {
			lastNodeExecuted?: string;
			runData: Record<
				string,
				Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
			error?: { message: string };
		};
	};
}

/** The first item a node emitted in an execution (fetched with its data). */
export function nodeOutput(execution: Execution, nodeName: string): Record<string, unknown> {
	const runs = execution.data?.resultData.runData[nodeName];
	const item = runs?.[0]?.data?.main[0]?.[0];
	if (!item) {
		throw new Error(
			`Execution ${execution.id} has no output of node "${nodeName}" (status ${execution.status})`,
		);
	}
	return item.json;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export class N8nApiError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(message);
		this.name = 'N8nApiError';
	}
}

export class N8nClient {
	private cookie = '';

	private apiKey = '';

	constructor(readonly baseUrl: string) {}

	/** Creates the owner account (first start of a user folder) and keeps its session cookie. */
	async setupOwner(owner: Owner = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/rest/owner/setup', owner);
	}

	async login(owner: Owner = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	}

	/** Creates an API key with every scope the instance offers and uses it for public API calls. */
	async createApiKey(label = 'e2e'): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/rest/api-keys', {
			label,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** The owner's session cookie (`n8n-auth`), e.g. for a browser. */
	get sessionCookie(): { name: string; value: string } | undefined {
		if (!this.cookie) return undefined;
		const [name, value] = this.cookie.split('=', 2);
		return { name, value };
	}

	useApiKey(apiKey: string): void {
		this.apiKey = apiKey;
	}

	/**
	 * What the credential dialog's "Test" button does: n8n tests the values in the dialog
	 * (`credential.data`) of a credential the user may read (`credential.id`).
	 */
	async testCredential(credential: CredentialData & { id: string }): Promise<CredentialTestResult> {
		return await this.rest<CredentialTestResult>('POST', '/rest/credentials/test', {
			credentials: credential,
		});
	}

	/** Saves a credential as the dialog does (the public API's schema asks for fields our type lacks). */
	async createCredential(credential: CredentialData): Promise<{ id: string; name: string }> {
		const { id, name } = await this.rest<{ id: string; name: string }>(
			'POST',
			'/rest/credentials',
			credential,
		);
		return { id, name };
	}

	async createWorkflow(workflow: WorkflowDefinition): Promise<{ id: string; name: string }> {
		const { name, nodes, connections, settings = {} } = workflow;
		return await this.publicApi('POST', '/workflows', { name, nodes, connections, settings });
	}

	/** Activation runs the triggers' webhook lifecycle (checkExists/create) in the running instance. */
	async activateWorkflow(id: string): Promise<void> {
		await this.publicApi('POST', `/workflows/${id}/activate`);
	}

	/** Deactivation runs the triggers' delete(). */
	async deactivateWorkflow(id: string): Promise<void> {
		await this.publicApi('POST', `/workflows/${id}/deactivate`);
	}

	/** Executions (of one workflow, or of all), oldest first, with their data. */
	async listExecutions(workflowId?: string): Promise<Execution[]> {
		const executions: Execution[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({ includeData: 'true', limit: '250' });
			if (workflowId) query.set('workflowId', workflowId);
			if (cursor) query.set('cursor', cursor);
			const page = await this.publicApi<{ data: Execution[]; nextCursor: string | null }>(
				'GET',
				`/executions?${query}`,
			);
			executions.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return executions.sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * Waits until the workflow has at least `count` finished executions (n8n saves them after the
	 * webhook has been answered) and returns them, oldest first.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<Execution[]> {
		const startedAt = Date.now();
		for (;;) {
			const executions = await this.listExecutions(workflowId);
			const settled = executions.filter(
				(execution) => execution.status !== 'running' && execution.status !== 'new',
			);
			if (settled.length >= count) return settled;
			if (Date.now() - startedAt > timeoutMs) {
				throw new Error(
					`Workflow ${workflowId} has ${settled.length} finished execution(s) after ${timeoutMs} ms, expected ${count}`,
				);
			}
			await new Promise((wake) => setTimeout(wake, 250));
		}
	}

	/** The editor's REST API: session cookie, answers wrapped in `{ data }`. */
	private async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.send(
			method,
			path,
			body,
			this.cookie ? { cookie: this.cookie } : {},
		);
		const authCookie = response.headers
			.getSetCookie()
			.map((header) => header.split(';')[0])
			.find((pair) => pair.startsWith('n8n-auth='));
		if (authCookie) this.cookie = authCookie;
		return ((await readAnswer(method, path, response)) as { data: T }).data;
	}

	/** The public API: API key, plain answers. */
	private async publicApi<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('No n8n API key: call createApiKey() first');
		const fullPath = `/api/v1${path}`;
		const response = await this.send(method, fullPath, body, { 'x-n8n-api-key': this.apiKey });
		return (await readAnswer(method, fullPath, response)) as T;
	}

	private async send(
		method: string,
		path: string,
		body: unknown,
		headers: Record<string, string>,
	): Promise<Response> {
		return await fetch(this.baseUrl + path, {
			method,
			headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}
}

/** The parsed JSON answer; an N8nApiError naming the request when the status is not 2xx. */
async function readAnswer(method: string, path: string, response: Response): Promise<unknown> {
	const text = await response.text();
	let parsed: unknown = text || undefined;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON (an HTML error page): keep the text for the message
	}
	if (!response.ok) {
		throw new N8nApiError(
			`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`,
			response.status,
			parsed,
		);
	}
	return parsed;
}

// ---------------------------------------------------------------------------------------------
// The whole setup in one call

export interface StartedN8n {
	n8n: N8nInstance;
	client: N8nClient;
	apiKey: string;
	owner: Owner;
}

/**
 * A fresh user folder with the package installed, n8n started, the owner account set up and an API
 * key created: what the e2e tests, the demo and the benchmarks start from.
 */
export async function startN8nWithPackage(
	options: {
		workFolder?: string;
		port?: number;
		env?: Record<string, string>;
		onOutput?: (chunk: string) => void;
	} = {},
): Promise<StartedN8n> {
	n8nBinary();
	const userFolder = await prepareUserFolder(options.workFolder);
	const n8n = await N8nInstance.start({
		userFolder,
		port: options.port,
		env: options.env,
		onOutput: options.onOutput,
	});
	try {
		const client = new N8nClient(n8n.url);
		await client.setupOwner(DEFAULT_OWNER);
		const apiKey = await client.createApiKey();
		return { n8n, client, apiKey, owner: DEFAULT_OWNER };
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}
