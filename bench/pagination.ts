/**
 * Pagination: every member read at N = 1,000 / 10,000 / 100,000 by three contenders, alternating
 * per size — our node's Get Many with Return All, n8n's HTTP Request node with its built-in
 * pagination (+ Split Out, so it also ends with one item per member), and a bare `fetch` loop in a
 * fresh Node process (the limit).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import { PACKAGE_ROOT } from '../harness/constants';
import { nodeBinary } from '../harness/n8n';
import { SandboxControl } from '../harness/sandbox-control';
import {
	chainWorkflow,
	memberParameters,
	webhookNode,
	workforceNode,
	type WorkflowNode,
} from '../harness/workflows';
import {
	BEARER_CREDENTIAL_TYPE,
	MEASURED,
	WARM_UP,
	type BenchEnvironment,
	type BenchOrganization,
} from './environment';
import { median, peakBetween, readCpuMs, RssSampler } from './memory';
import type { PlainLoopResult } from './plain-loop';

const execFileAsync = promisify(execFile);

export const CONTENDERS = ['ours', 'httpRequest', 'plainLoop'] as const;
export type Contender = (typeof CONTENDERS)[number];

export const CONTENDER_LABELS: Record<Contender, string> = {
	ours: 'Workforce Management node (Get Many, Return All)',
	httpRequest: 'HTTP Request node 4.2 pagination + Split Out',
	plainLoop: 'Plain fetch loop (fresh Node process)',
};

export const DEFAULT_SIZES = [1_000, 10_000, 100_000];
export const PAGE_SIZE = 100;
const WARM_UP_MEMBERS = 250;

export interface PaginationMeasurement {
	contender: Contender;
	size: number;
	/** Median of the runs: node execution time from n8n's execution record; the loop's own clock. */
	wallMs: number;
	runsMs: number[];
	requests: number;
	items: number;
	/** Peak RSS minus the RSS before the run (the first run in a fresh n8n; the loop's median). */
	peakRssGrowthBytes: number;
	/** Peak heap in use (sampled every 10 ms in the process) minus the heap after a full GC before. */
	peakHeapGrowthBytes: number;
	/** Parts of the figure, e.g. each n8n node's execution time, or the loop's heap growth. */
	detail: Record<string, number>;
}

const OUR_NODE = 'Workforce Management';
const HTTP_NODE = 'HTTP Request';
const SPLIT_NODE = 'Split Out';

interface N8nContender {
	/** Nodes whose execution times add up to the contender's time, in order. */
	measuredNodes: string[];
	workflow(organization: BenchOrganization, env: BenchEnvironment): WorkflowNode[];
}

const N8N_CONTENDERS: Record<Exclude<Contender, 'plainLoop'>, N8nContender> = {
	ours: {
		measuredNodes: [OUR_NODE],
		workflow: (organization, env) => [
			workforceNode(OUR_NODE, env.credentials.ours[organization.slug], memberParameters.getAll()),
		],
	},
	httpRequest: {
		measuredNodes: [HTTP_NODE, SPLIT_NODE],
		// Configured as the HTTP Request docs suggest for a cursor API: the cursor from the previous
		// response body, complete when has_more is false, 100 per page, a Bearer credential.
		workflow: (organization, env) => [
			{
				name: HTTP_NODE,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'GET',
					url: `${env.sandbox.baseUrl}/members`,
					authentication: 'genericCredentialType',
					genericAuthType: BEARER_CREDENTIAL_TYPE,
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'limit', value: String(PAGE_SIZE) }] },
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [
										{ type: 'qs', name: 'cursor', value: '={{ $response.body.next_cursor }}' },
									],
								},
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !$response.body.has_more }}',
							},
						},
					},
				},
				credentials: { [BEARER_CREDENTIAL_TYPE]: env.credentials.bearer[organization.slug] },
			},
			{
				name: SPLIT_NODE,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} },
			},
		],
	},
};

function webhookPath(contender: Contender, organization: BenchOrganization): string {
	return `bench-${contender}-${organization.slug}`;
}

/** Creates and activates one workflow per n8n contender and organization. */
export async function createPaginationWorkflows(
	env: BenchEnvironment,
): Promise<Record<string, string>> {
	const workflowIds: Record<string, string> = {};
	for (const [contender, definition] of Object.entries(N8N_CONTENDERS)) {
		for (const organization of [MEASURED, WARM_UP]) {
			const path = webhookPath(contender as Contender, organization);
			workflowIds[path] = await env.createActiveWorkflow(
				chainWorkflow(`Bench: ${contender} (${organization.slug})`, [
					webhookNode('Start', path, 'noData'),
					...definition.workflow(organization, env),
				]),
			);
		}
	}
	return workflowIds;
}

function outputItemCount(run: { data?: { main: Array<Array<unknown> | null> } }): number {
	return run.data?.main[0]?.length ?? 0;
}

interface N8nRun {
	nodeTimesMs: number[];
	/** CPU time n8n used from the webhook call to its answer (saving the execution included). */
	cpuMs: number;
	windowStart: number;
	windowEnd: number;
	requests: number;
	medianGapMs: number;
}

/** Starts the measured workflow once and reads its node times from n8n's execution record. */
async function runInN8n(
	env: BenchEnvironment,
	workflowId: string,
	contender: Exclude<Contender, 'plainLoop'>,
	size: number,
	profileLabel?: string,
): Promise<N8nRun> {
	const { measuredNodes } = N8N_CONTENDERS[contender];
	await env.control.clearRequests();
	const call = () => env.callWebhook(webhookPath(contender, MEASURED));
	const cpuBeforeMs = readCpuMs(env.n8n.pid);
	const answer = profileLabel ? await env.profiled(profileLabel, call) : await call();
	const cpuMs = readCpuMs(env.n8n.pid) - cpuBeforeMs;
	const execution = await env.latestExecution(workflowId);
	if (answer.status !== 200 || execution.status !== 'success') {
		throw new Error(
			`${contender} at ${size}: webhook answered ${answer.status}, execution ${execution.id} is ${
				execution.status
			}: ${execution.data.resultData.error?.message ?? answer.body}`,
		);
	}
	const runs = measuredNodes.map((name) => {
		const run = execution.data.resultData.runData[name]?.[0];
		if (!run) throw new Error(`Execution ${execution.id} has no run of node "${name}"`);
		return run;
	});
	const items = outputItemCount(runs[runs.length - 1]);
	if (items !== size) {
		throw new Error(
			`${contender} returned ${items} items for ${size} members (execution ${execution.id})`,
		);
	}
	return {
		nodeTimesMs: runs.map((run) => run.executionTime),
		cpuMs,
		windowStart: runs[0].startTime,
		windowEnd: Math.max(...runs.map((run) => run.startTime + run.executionTime)),
		...(await pageRequests(env)),
	};
}

async function measureInN8n(
	env: BenchEnvironment,
	workflowIds: Record<string, string>,
	contender: Exclude<Contender, 'plainLoop'>,
	size: number,
	repeat: number,
): Promise<PaginationMeasurement> {
	const workflowId = workflowIds[webhookPath(contender, MEASURED)];
	// A fresh process per contender and size: n8n's heap never shrinks back, so an earlier run would
	// hide (or inflate) this one's memory growth. A warm-up run loads and compiles the same nodes.
	await env.restartN8n();
	const warmUp = await env.callWebhook(webhookPath(contender, WARM_UP));
	if (warmUp.status !== 200) {
		throw new Error(`Warm-up of ${contender} answered ${warmUp.status}: ${warmUp.body}`);
	}
	const heapBaselineBytes = await env.heapAfterGcBytes();
	// V8 hands the pages a full GC freed back to the system over the next moments.
	await new Promise((wake) => setTimeout(wake, 1500));
	const rssBaselineBytes = await env.idleRssBytes();
	const rssSampler = new RssSampler(env.n8n.pid);
	rssSampler.start();
	const { result: first, samples: heapSamples } = await env.withHeapSamples(() =>
		runInN8n(env, workflowId, contender, size, `pagination-${contender}-${size}`),
	);
	const rssSamples = rssSampler.stop();
	// Further runs in the same process give more time samples; memory comes from the first only.
	const runs = [first];
	for (let index = 1; index < repeat; index++) {
		runs.push(await runInN8n(env, workflowId, contender, size));
	}

	const detail: Record<string, number> = {};
	for (const [index, name] of N8N_CONTENDERS[contender].measuredNodes.entries()) {
		detail[`${name} ms (median)`] = median(runs.map((run) => run.nodeTimesMs[index]));
	}
	detail['ms between page requests (median)'] = median(runs.map((run) => run.medianGapMs));
	detail['n8n CPU ms, whole execution (median)'] = median(runs.map((run) => run.cpuMs));
	detail['n8n RSS before (MB)'] = rssBaselineBytes / 2 ** 20;
	return {
		contender,
		size,
		wallMs: median(runs.map((run) => run.nodeTimesMs.reduce((total, time) => total + time, 0))),
		runsMs: runs.map((run) => run.nodeTimesMs.reduce((total, time) => total + time, 0)),
		requests: Math.max(...runs.map((run) => run.requests)),
		items: size,
		peakRssGrowthBytes:
			peakBetween(rssSamples, first.windowStart, first.windowEnd) - rssBaselineBytes,
		peakHeapGrowthBytes:
			peakBetween(heapSamples, first.windowStart, first.windowEnd) - heapBaselineBytes,
		detail,
	};
}

async function pageRequests(
	env: BenchEnvironment,
): Promise<{ requests: number; medianGapMs: number }> {
	const { count, medianGapMs } = await env.memberListRequests();
	return { requests: count, medianGapMs };
}

async function runPlainLoop(
	env: BenchEnvironment,
): Promise<PlainLoopResult & { requests: number; medianGapMs: number }> {
	await env.control.clearRequests();
	// The line's Node, as n8n's: the loop is the limit for the Node the line runs on.
	const { stdout } = await execFileAsync(
		nodeBinary(),
		['--expose-gc', '--import', 'tsx', 'bench/plain-loop.ts', env.sandbox.baseUrl, MEASURED.apiKey],
		{ cwd: PACKAGE_ROOT, maxBuffer: 1024 * 1024 },
	);
	const result = JSON.parse(stdout.trim().split('\n').pop()!) as PlainLoopResult;
	return { ...result, ...(await pageRequests(env)) };
}

/** A fresh process per run; the figures are the medians of the runs. */
async function measurePlainLoop(
	env: BenchEnvironment,
	size: number,
	repeat: number,
): Promise<PaginationMeasurement> {
	const runs: Array<PlainLoopResult & { requests: number; medianGapMs: number }> = [];
	for (let index = 0; index < repeat; index++) {
		const run = await runPlainLoop(env);
		if (run.records !== size) {
			throw new Error(`The plain loop read ${run.records} members, expected ${size}`);
		}
		runs.push(run);
	}
	return {
		contender: 'plainLoop',
		size,
		wallMs: median(runs.map((run) => run.wallMs)),
		runsMs: runs.map((run) => run.wallMs),
		requests: Math.max(...runs.map((run) => run.requests)),
		items: size,
		peakRssGrowthBytes: median(runs.map((run) => run.rssPeakBytes - run.rssBeforeBytes)),
		peakHeapGrowthBytes: median(runs.map((run) => run.heapPeakBytes - run.heapBeforeBytes)),
		detail: {
			'heap growth after the loop and a GC, records held (MB, median)':
				median(runs.map((run) => run.heapAfterBytes - run.heapBeforeBytes)) / 2 ** 20,
			'ms between page requests (median)': median(runs.map((run) => run.medianGapMs)),
			'RSS before (MB)': median(runs.map((run) => run.rssBeforeBytes)) / 2 ** 20,
		},
	};
}

/** The contenders in a different order at each size, so none always runs first or last. */
function rotation(contenders: readonly Contender[], sizeIndex: number): Contender[] {
	const shift = sizeIndex % contenders.length;
	return [...contenders.slice(shift), ...contenders.slice(0, shift)];
}

export interface PaginationOptions {
	sizes: number[];
	/** Runs per contender and size (time is their median). */
	repeat: number;
	contenders: readonly Contender[];
	log: (line: string) => void;
}

/** Seeds the sandbox size by size (it starts empty) and measures every contender at each size. */
export async function runPagination(
	env: BenchEnvironment,
	options: PaginationOptions,
): Promise<PaginationMeasurement[]> {
	const workflowIds = await createPaginationWorkflows(env);
	await new SandboxControl(env.sandbox.origin, WARM_UP.target).seedMembers(WARM_UP_MEMBERS);

	const measurements: PaginationMeasurement[] = [];
	let seeded = 0;
	for (const [sizeIndex, size] of [...options.sizes].sort((a, b) => a - b).entries()) {
		options.log(`Seeding the sandbox up to ${size} members`);
		await env.control.seedMembers(size - seeded);
		seeded = size;
		for (const contender of rotation(options.contenders, sizeIndex)) {
			const measurement =
				contender === 'plainLoop'
					? await measurePlainLoop(env, size, options.repeat)
					: await measureInN8n(env, workflowIds, contender, size, options.repeat);
			options.log(
				`  ${contender.padEnd(11)} N=${size}: ${measurement.wallMs.toFixed(0)} ms, ${
					measurement.requests
				} requests, peak growth RSS ${(measurement.peakRssGrowthBytes / 2 ** 20).toFixed(1)} MB, heap ${(
					measurement.peakHeapGrowthBytes /
					2 ** 20
				).toFixed(1)} MB`,
			);
			measurements.push(measurement);
		}
	}
	return measurements;
}
