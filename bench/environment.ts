/**
 * What every benchmark part starts from: the sandbox on loopback (no rate limit, accepting n8n's
 * http:// webhook URL) and a real n8n 2.8.4 with our package installed the way users install it,
 * reused from the end-to-end harness.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

import { CREDENTIAL_TYPE, GLOBEX_KEY, LIVE_KEY, PACKAGE_ROOT } from '../harness/constants';
import {
	freePort,
	ensureN8nInstalled,
	N8nInstance,
	startN8nWithPackage,
	type N8nClient,
	type WorkflowDefinition,
} from '../harness/n8n';
import { SandboxControl, type SandboxTarget } from '../harness/sandbox-control';
import type { CredentialReference } from '../harness/workflows';
import { startSandbox, type Sandbox } from '../sandbox';
import { median, readRssBytes, type MemorySample } from './memory';

export const BENCH_WORK_FOLDER = join(PACKAGE_ROOT, 'bench', '.work');

const execFileAsync = promisify(execFile);

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/**
 * Builds unless every TypeScript source has a newer compiled file in dist/. Compared file by file:
 * a build that started before an edit and finished after it leaves dist/ newer than the edit as a
 * whole, yet stale.
 */
async function buildWhenStale(log: (line: string) => void): Promise<void> {
	const stale = ['nodes', 'credentials'].flatMap((folder) =>
		sourceFiles(join(PACKAGE_ROOT, folder)).filter((source) => {
			const compiled = join(PACKAGE_ROOT, 'dist', relative(PACKAGE_ROOT, source)).replace(
				/\.ts$/,
				'.js',
			);
			return !existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs;
		}),
	);
	if (stale.length === 0) return;
	log(`Building the package (${stale.length} source file(s) newer than dist/)`);
	await execFileAsync('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, maxBuffer: 64 * 1024 * 1024 });
}

/** The organization measured, and a second one with a few members to warm n8n up against. */
export interface BenchOrganization {
	slug: 'acme' | 'globex';
	target: SandboxTarget;
	apiKey: string;
}
export const MEASURED: BenchOrganization = {
	slug: 'acme',
	target: { organization: 'acme', mode: 'live' },
	apiKey: LIVE_KEY,
};
export const WARM_UP: BenchOrganization = {
	slug: 'globex',
	target: { organization: 'globex', mode: 'live' },
	apiKey: GLOBEX_KEY,
};

/** n8n's built-in credential for `Authorization: Bearer <token>`, what a user picks in HTTP Request. */
export const BEARER_CREDENTIAL_TYPE = 'httpBearerAuth';

export interface NodeRun {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	data?: { main: Array<Array<unknown> | null> };
	error?: { message: string };
}

export interface ExecutionWithData {
	id: string;
	status: string;
	data: { resultData: { runData: Record<string, NodeRun[]>; error?: { message: string } } };
}

export class BenchEnvironment {
	private constructor(
		readonly sandbox: Sandbox,
		readonly control: SandboxControl,
		public n8n: N8nInstance,
		readonly client: N8nClient,
		readonly apiKey: string,
		readonly credentials: {
			ours: Record<BenchOrganization['slug'], CredentialReference>;
			bearer: Record<BenchOrganization['slug'], CredentialReference>;
		},
		private readonly n8nEnvironment: Record<string, string>,
		/** With a folder, `profiled()` writes n8n's CPU profiles there. */
		private readonly profileFolder: string | undefined,
	) {}

	/** n8n runs with bench/n8n-probe.cjs preloaded: heap samples, forced GC and CPU profiles. */
	static async start(
		options: { profileFolder?: string; log?: (line: string) => void } = {},
	): Promise<BenchEnvironment> {
		const log = options.log ?? (() => undefined);
		ensureN8nInstalled();
		await buildWhenStale(log);
		const n8nEnvironment: Record<string, string> = {
			NODE_OPTIONS: `--require ${join(PACKAGE_ROOT, 'bench', 'n8n-probe.cjs')}`,
			BENCH_PROBE_PORT: String(await freePort()),
		};
		if (options.profileFolder) mkdirSync(options.profileFolder, { recursive: true });
		mkdirSync(BENCH_WORK_FOLDER, { recursive: true });
		const sandbox = await startSandbox({
			config: {
				webhooks: { allowInsecureUrls: true },
				// The benchmark measures reading speed, not the API's quota.
				rateLimit: { requests: 1_000_000_000, perSeconds: 1 },
			},
		});
		try {
			const { n8n, client, apiKey } = await startN8nWithPackage({
				workFolder: BENCH_WORK_FOLDER,
				env: n8nEnvironment,
			});
			try {
				const credentials = { ours: {}, bearer: {} } as BenchEnvironment['credentials'];
				for (const organization of [MEASURED, WARM_UP]) {
					credentials.ours[organization.slug] = await client.createCredential({
						name: `Workforce Management (${organization.slug})`,
						type: CREDENTIAL_TYPE,
						data: { apiKey: organization.apiKey, baseUrl: sandbox.baseUrl },
					});
					credentials.bearer[organization.slug] = await client.createCredential({
						name: `Bearer ${organization.slug}`,
						type: BEARER_CREDENTIAL_TYPE,
						data: { token: organization.apiKey },
					});
				}
				const control = new SandboxControl(sandbox.origin, MEASURED.target);
				return new BenchEnvironment(
					sandbox,
					control,
					n8n,
					client,
					apiKey,
					credentials,
					n8nEnvironment,
					options.profileFolder,
				);
			} catch (error) {
				await n8n.stop();
				throw error;
			}
		} catch (error) {
			await sandbox.close();
			throw error;
		}
	}

	/** A fresh n8n process on the same user folder and port (active workflows come back). */
	async restartN8n(): Promise<void> {
		await this.n8n.stop();
		this.n8n = await N8nInstance.start({
			userFolder: this.n8n.userFolder,
			port: this.n8n.port,
			env: this.n8nEnvironment,
		});
	}

	/** Calls the probe preloaded into n8n (bench/n8n-probe.cjs). */
	async probe<T = unknown>(route: string): Promise<T> {
		const response = await fetch(
			`http://127.0.0.1:${this.n8nEnvironment.BENCH_PROBE_PORT}${route}`,
		);
		if (!response.ok) throw new Error(`n8n probe ${route} answered ${response.status}`);
		return (await response.json()) as T;
	}

	/** n8n's heap in use after a full garbage collection. */
	async heapAfterGcBytes(): Promise<number> {
		return (await this.probe<{ heapUsed: number }>('/gc')).heapUsed;
	}

	/** Samples n8n's heap in use every 10 ms, inside n8n, while `work` runs. */
	async withHeapSamples<T>(
		work: () => Promise<T>,
	): Promise<{ result: T; samples: MemorySample[] }> {
		await this.probe('/heap/start');
		const result = await work();
		const { samples } = await this.probe<{ samples: MemorySample[] }>('/heap/stop');
		return { result, samples };
	}

	/**
	 * Runs `work`; when profiling, n8n's CPU profile of exactly that span is written to
	 * `<profile folder>/<label>.cpuprofile`.
	 */
	async profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
		if (!this.profileFolder) return await work();
		await this.probe('/profile/start');
		const result = await work();
		const profile = await this.probe('/profile/stop');
		writeFileSync(join(this.profileFolder, `${label}.cpuprofile`), JSON.stringify(profile));
		return result;
	}

	/** The n8n process's RSS, as the median of a few samples while it is idle. */
	async idleRssBytes(samples = 10, intervalMs = 50): Promise<number> {
		const values: number[] = [];
		for (let index = 0; index < samples; index++) {
			values.push(readRssBytes(this.n8n.pid));
			await new Promise((wake) => setTimeout(wake, intervalMs));
		}
		return median(values);
	}

	async createActiveWorkflow(workflow: WorkflowDefinition): Promise<string> {
		const { id } = await this.client.createWorkflow(workflow);
		await this.client.activateWorkflow(id);
		return id;
	}

	/**
	 * Calls a production webhook and resolves when n8n answers. Plain node:http without time-outs:
	 * with "respond when the last node finishes", a 100,000-member run keeps the request open.
	 */
	async callWebhook(path: string, body: unknown = {}): Promise<{ status: number; body: string }> {
		const payload = JSON.stringify(body);
		return await new Promise((resolve, reject) => {
			const outgoing = request(
				`${this.n8n.url}/webhook/${path}`,
				{
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(payload),
					},
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () =>
						resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
					);
					response.on('error', reject);
				},
			);
			outgoing.on('error', reject);
			outgoing.end(payload);
		});
	}

	/** The newest execution of a workflow, with its run data (node start and execution times). */
	async latestExecution(workflowId: string): Promise<ExecutionWithData> {
		const { data } = await this.publicApi<{ data: Array<{ id: string }> }>(
			`/executions?workflowId=${workflowId}&limit=1`,
		);
		if (data.length === 0) throw new Error(`Workflow ${workflowId} has no execution`);
		return await this.publicApi<ExecutionWithData>(`/executions/${data[0].id}?includeData=true`);
	}

	/** How many executions of a workflow n8n has recorded, by status. */
	async countExecutions(workflowId: string): Promise<Record<string, number>> {
		return await this.client.countExecutions(workflowId);
	}

	/**
	 * The member list requests the sandbox received since its log was last cleared, and the median
	 * time between two of them: one page's round trip plus the client's own work per page.
	 */
	async memberListRequests(): Promise<{ count: number; medianGapMs: number }> {
		const arrivals = (await this.control.requests())
			.filter((entry) => entry.method === 'GET' && entry.path === '/api/v1/members')
			.map((entry) => Date.parse(entry.at));
		const gaps = arrivals.slice(1).map((arrival, index) => arrival - arrivals[index]);
		return { count: arrivals.length, medianGapMs: gaps.length > 0 ? median(gaps) : 0 };
	}

	/** Stops n8n and the sandbox and deletes this run's n8n user folder (its database grows large). */
	async stop(): Promise<void> {
		try {
			await this.n8n.stop();
		} finally {
			await this.sandbox.close();
			rmSync(dirname(this.n8n.userFolder), { recursive: true, force: true });
		}
	}

	private async publicApi<T>(path: string): Promise<T> {
		const response = await fetch(`${this.n8n.url}/api/v1${path}`, {
			headers: { 'x-n8n-api-key': this.apiKey },
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`n8n GET /api/v1${path} answered ${response.status}: ${text}`);
		return JSON.parse(text) as T;
	}
}
