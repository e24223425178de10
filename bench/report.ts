/**
 * Keeps each part's last figures per n8n line in bench/results/<n8n version>/<part>.json and writes
 * bench/RESULTS.md and bench/pagination.png from them: the lines side by side first, then each
 * line's full tables. A part or a line run alone refreshes its figures and keeps the others.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

import { N8N_CACHE_DIR, N8N_LINE, N8N_LINES, N8N_VERSION } from '../harness/n8n';
import { PACKAGE_ROOT } from '../harness/constants';
import {
	CONTENDER_LABELS,
	CONTENDERS,
	PAGE_SIZE,
	type Contender,
	type PaginationMeasurement,
} from './pagination';
import { ENVELOPE_MEMORY_LIMITS } from '../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import { lineChartSvg, writePng } from './plot';
import {
	SENDERS,
	WEBHOOK_CONTENDER_LABELS,
	type ExecutionRecordSize,
	type Sender,
	type WebhookMeasurement,
	type WebhookOptions,
} from './webhooks';

const BENCH_FOLDER = join(PACKAGE_ROOT, 'bench');
const RESULTS_FOLDER = join(BENCH_FOLDER, 'results');
export const RESULTS_MARKDOWN = join(BENCH_FOLDER, 'RESULTS.md');
export const PLOT_PNG = join(BENCH_FOLDER, 'pagination.png');

export interface MachineInfo {
	cpu: string;
	cores: number;
	memoryGiB: number;
	kernel: string;
	node: string;
	n8n: string;
	n8nNodesBase: string;
	packageVersion: string;
	loadAverageAtStart: number[];
}

export interface PartRecord<T> {
	finishedAt: string;
	machine: MachineInfo;
	settings: Record<string, unknown>;
	measurements: T[];
	/** Webhooks only: one stored execution record per contender. */
	executionSizes?: ExecutionRecordSize[];
}

type PartName = 'pagination' | 'scale' | 'webhooks';

const CONTENDER_COLORS: Record<Contender, string> = {
	ours: '#e4572e',
	httpRequest: '#4c72b0',
	plainLoop: '#55a868',
};

function packageVersion(path: string): string {
	return existsSync(path)
		? (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
		: 'unknown';
}

export function machineInfo(): MachineInfo {
	return {
		cpu: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		kernel: release(),
		// the Node n8n runs on (a line may need another than this process's: scripts/n8n/lines.json)
		node: N8N_LINE.node ? `v${N8N_LINE.node}` : process.version,
		n8n: N8N_VERSION,
		n8nNodesBase: packageVersion(
			join(N8N_CACHE_DIR, 'node_modules', 'n8n-nodes-base', 'package.json'),
		),
		packageVersion: packageVersion(join(PACKAGE_ROOT, 'package.json')),
		loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
	};
}

/** Saves a part's figures for the line this process runs (N8N_VERSION). */
export function savePart<T>(part: PartName, record: PartRecord<T>): void {
	const folder = join(RESULTS_FOLDER, N8N_VERSION);
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, `${part}.json`), `${JSON.stringify(record, null, '\t')}\n`);
}

function loadPart<T>(version: string, part: PartName): PartRecord<T> | undefined {
	const path = join(RESULTS_FOLDER, version, `${part}.json`);
	return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as PartRecord<T>) : undefined;
}

/** One line's last figures. */
interface LineResults {
	version: string;
	pagination?: PartRecord<PaginationMeasurement>;
	scale?: PartRecord<PaginationMeasurement>;
	webhooks?: PartRecord<WebhookMeasurement>;
}

/** Tested lines first, oldest first, then any other version measured with N8N_VERSION. */
function measuredLines(): LineResults[] {
	const tested = N8N_LINES.map((line) => line.n8n);
	const folders = existsSync(RESULTS_FOLDER)
		? readdirSync(RESULTS_FOLDER, { withFileTypes: true })
				.filter((entry) => entry.isDirectory())
				.map((entry) => entry.name)
		: [];
	const versions = [
		...tested.filter((version) => folders.includes(version)),
		...folders.filter((version) => !tested.includes(version)).sort(),
	];
	return versions
		.map((version) => ({
			version,
			pagination: loadPart<PaginationMeasurement>(version, 'pagination'),
			scale: loadPart<PaginationMeasurement>(version, 'scale'),
			webhooks: loadPart<WebhookMeasurement>(version, 'webhooks'),
		}))
		.filter((line) => line.pagination ?? line.scale ?? line.webhooks);
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const decimal = (value: number, digits = 1) => value.toFixed(digits);
const megabytes = (bytes: number) => decimal(bytes / 2 ** 20);
const verdict = (met: boolean) => (met ? '✅ met' : '❌ missed');

function find(
	measurements: PaginationMeasurement[],
	contender: Contender,
	size: number,
): PaginationMeasurement | undefined {
	return measurements.find((entry) => entry.contender === contender && entry.size === size);
}

function sizesOf(measurements: PaginationMeasurement[]): number[] {
	return [...new Set(measurements.map((entry) => entry.size))].sort((a, b) => a - b);
}

function describeMachine(machine: MachineInfo): string {
	return (
		`${machine.cpu} × ${machine.cores} cores, ${machine.memoryGiB} GiB RAM, Linux ${machine.kernel}; ` +
		`Node ${machine.node}; n8n ${machine.n8n} (n8n-nodes-base ${machine.n8nNodesBase}); ` +
		`n8n-nodes-workforce-management ${machine.packageVersion}`
	);
}

function runLine(record: PartRecord<unknown>, newest: PartRecord<unknown>): string[] {
	const sameMachine = describeMachine(record.machine) === describeMachine(newest.machine);
	return [
		`_Run finished ${record.finishedAt}; load average (1/5/15 min) at its start ${record.machine.loadAverageAtStart.join(
			' / ',
		)}${sameMachine ? '' : `; machine: ${describeMachine(record.machine)}`}._`,
		'',
	];
}

interface Target {
	name: string;
	size: number;
	figure: string;
	met: boolean;
}

/** Ours against a peer's time, from 10,000 members up. */
const TIME_GOALS: Array<{ name: string; peer: Contender; met: (factor: number) => boolean }> = [
	{ name: 'time ≤ 1.3 × plain loop', peer: 'plainLoop', met: (factor) => factor <= 1.3 },
	{ name: 'faster than HTTP Request', peer: 'httpRequest', met: (factor) => factor < 1 },
];

/** The pagination goals, checked against one line's figures. */
function paginationTargets(measurements: PaginationMeasurement[]): Target[] {
	const targets: Target[] = [];
	for (const size of sizesOf(measurements)) {
		const ours = find(measurements, 'ours', size);
		if (!ours) continue;
		const expected = Math.ceil(size / PAGE_SIZE);
		targets.push({
			name: 'requests = ceil(N/100)',
			size,
			figure: `${ours.requests} of ${expected}`,
			met: ours.requests === expected,
		});
	}
	for (const size of sizesOf(measurements).filter((value) => value >= 10_000)) {
		const ours = find(measurements, 'ours', size);
		for (const goal of TIME_GOALS) {
			const peer = find(measurements, goal.peer, size);
			if (!ours || !peer) continue;
			const factor = ours.wallMs / peer.wallMs;
			targets.push({
				name: goal.name,
				size,
				figure: `${decimal(factor, 2)} ×`,
				met: goal.met(factor),
			});
		}
	}
	const largest = Math.max(...sizesOf(measurements));
	const oursLargest = find(measurements, 'ours', largest);
	const loopLargest = find(measurements, 'plainLoop', largest);
	if (oursLargest && loopLargest && largest >= 100_000) {
		for (const [kind, key] of [
			['RSS', 'peakRssGrowthBytes'],
			['heap', 'peakHeapGrowthBytes'],
		] as const) {
			const factor = oursLargest[key] / loopLargest[key];
			targets.push({
				name: `peak ${kind} growth per item ≤ 1.5 × plain loop`,
				size: largest,
				figure: `${decimal(factor, 2)} × (${integer(oursLargest[key] / largest)} vs ${integer(loopLargest[key] / largest)} bytes)`,
				met: factor <= 1.5,
			});
		}
	}
	return targets;
}

function paginationSection(
	record: PartRecord<PaginationMeasurement>,
	newest: PartRecord<unknown>,
): string[] {
	const { measurements } = record;
	const repeat = (record.settings as { repeat?: number }).repeat ?? 1;
	const lines = ['## Pagination: read every member', '', ...runLine(record, newest)];
	lines.push(
		`Time is the median of ${repeat} run(s) per contender and size. Memory comes from the first run in a fresh n8n process: RSS growth and heap growth (see Method).`,
		'',
		'| N | contender | time (ms) | requests | ceil(N/100) | peak RSS growth (MB) | peak heap growth (MB) | µs / item | RSS bytes / item | heap bytes / item | parts |',
		'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
	);
	for (const size of sizesOf(measurements)) {
		for (const contender of CONTENDERS) {
			const entry = find(measurements, contender, size);
			if (!entry) continue;
			const parts = [
				`runs (ms): ${entry.runsMs.map((time) => integer(time)).join(' / ')}`,
				...Object.entries(entry.detail).map(
					([name, value]) => `${name}: ${decimal(value, name.includes(' ms') ? 0 : 1)}`,
				),
			].join('; ');
			lines.push(
				`| ${integer(size)} | ${CONTENDER_LABELS[contender]} | ${integer(entry.wallMs)} | ${entry.requests} | ` +
					`${Math.ceil(size / PAGE_SIZE)} | ${megabytes(entry.peakRssGrowthBytes)} | ${megabytes(entry.peakHeapGrowthBytes)} | ` +
					`${decimal((entry.wallMs * 1000) / size, 2)} | ${integer(entry.peakRssGrowthBytes / size)} | ` +
					`${integer(entry.peakHeapGrowthBytes / size)} | ${parts} |`,
			);
		}
	}

	lines.push('', '### Ratios', '');
	lines.push(
		'| N | time ours / plain loop | time ours / HTTP Request | requests ours / ceil(N/100) | RSS growth per item ours / plain loop | heap growth per item ours / plain loop |',
		'|---:|---:|---:|---:|---:|---:|',
	);
	const ratio = (numerator: number | undefined, denominator: number | undefined) =>
		numerator !== undefined && denominator ? decimal(numerator / denominator, 2) : '–';
	for (const size of sizesOf(measurements)) {
		const ours = find(measurements, 'ours', size);
		if (!ours) continue;
		const loop = find(measurements, 'plainLoop', size);
		const http = find(measurements, 'httpRequest', size);
		lines.push(
			`| ${integer(size)} | ${ratio(ours.wallMs, loop?.wallMs)} | ${ratio(ours.wallMs, http?.wallMs)} | ` +
				`${ratio(ours.requests, Math.ceil(size / PAGE_SIZE))} | ` +
				`${ratio(ours.peakRssGrowthBytes, loop?.peakRssGrowthBytes)} | ${ratio(ours.peakHeapGrowthBytes, loop?.peakHeapGrowthBytes)} |`,
		);
	}

	lines.push('', '### Targets', '', '| target | N | figure | verdict |', '|---|---:|---|---|');
	for (const target of paginationTargets(measurements)) {
		lines.push(
			`| ${target.name} | ${integer(target.size)} | ${target.figure} | ${verdict(target.met)} |`,
		);
	}
	lines.push('', '![Time to read every member against N](pagination.png)', '');
	return lines;
}

function scaleSection(
	record: PartRecord<PaginationMeasurement>,
	newest: PartRecord<unknown>,
): string[] {
	const { measurements } = record;
	const sizes = sizesOf(measurements);
	const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
	const lines = [
		'## Scale: per-item cost from the smallest to the largest N',
		'',
		...runLine(record, newest),
		`Linear growth shows as a flat per-item figure; the last rows divide the figure at ${integer(largest)} by the one at ${integer(smallest)}. ` +
			'Memory per item at small N is mostly noise (heap slack, buffers): read it from 10,000 up.',
		'',
		`| contender | ${sizes.map((size) => `N = ${integer(size)}`).join(' | ')} | ${integer(largest)} ÷ ${integer(smallest)} |`,
		`|---|${sizes.map(() => '---:').join('|')}|---:|`,
	];
	const figures: Array<[string, (entry: PaginationMeasurement) => number, number]> = [
		['µs / item', (entry) => (entry.wallMs * 1000) / entry.size, 2],
		['RSS bytes / item', (entry) => entry.peakRssGrowthBytes / entry.size, 0],
		['heap bytes / item', (entry) => entry.peakHeapGrowthBytes / entry.size, 0],
	];
	for (const [figureName, figureOf, digits] of figures) {
		for (const contender of CONTENDERS) {
			const values = sizes.map((size) => {
				const entry = find(measurements, contender, size);
				return entry ? figureOf(entry) : undefined;
			});
			if (values.every((value) => value === undefined)) continue;
			const [first, last] = [values[0], values[values.length - 1]];
			lines.push(
				`| ${CONTENDER_LABELS[contender]}: ${figureName} | ${values
					.map((value) => (value === undefined ? '–' : decimal(value, digits)))
					.join(' | ')} | ${first && last !== undefined ? decimal(last / first, 2) : '–'} |`,
			);
		}
	}
	lines.push('');
	return lines;
}

const SENDER_DESCRIPTIONS: Record<Sender, (settings: Partial<WebhookOptions>) => string> = {
	generator: (settings) =>
		`Load generator signing like the sandbox, at most ${settings.concurrency} requests in flight; send→ack timed per request`,
	sandbox: () =>
		"The sandbox's delivery engine, every delivery queued at once; creation→ack from the delivery records (ms)",
};

/**
 * Accepted/s ours ÷ the plain Webhook node with a full duplicate memory, per tested line: what the
 * trigger reached at 320 ids on 2.8.4, and on 2.41.1, where n8n's isolate per webhook request
 * dominates, no lower than before the memory grew. A line not listed gets figures, no verdict.
 */
const WEBHOOK_THROUGHPUT_GOALS: Record<string, number> = { '2.8.4': 0.89, '2.41.1': 0.56 };

/** `figure` with the line's throughput goal and whether it is met, when the line has one. */
function againstThroughputGoal(version: string, figure: number, symbolOnly: boolean): string {
	const goal = WEBHOOK_THROUGHPUT_GOALS[version];
	if (goal === undefined) return decimal(figure, 3);
	if (symbolOnly) return `${decimal(figure, 3)} ${figure >= goal ? '✅' : '❌'} (goal ≥ ${goal})`;
	return `**${decimal(figure, 3)}** (goal ≥ ${goal}: ${verdict(figure >= goal)})`;
}

interface WebhookRatios {
	sender: Sender;
	throughput: number;
	/** Ours with Ignore Duplicate Deliveries off ÷ the plain Webhook node (runs before it lack it). */
	throughputWithoutMemory: number | undefined;
	p50: number;
	p95: number;
}

/** Ours ÷ the plain Webhook node, per sender. */
function webhookRatios(measurements: WebhookMeasurement[]): WebhookRatios[] {
	return SENDERS.flatMap((sender) => {
		const of = (contender: WebhookMeasurement['contender']) =>
			measurements.find((entry) => entry.sender === sender && entry.contender === contender);
		const [ours, withoutMemory, plain] = [
			of('ourTrigger'),
			of('ourTriggerNoMemory'),
			of('plainWebhook'),
		];
		if (!ours || !plain) return [];
		return [
			{
				sender,
				throughput: ours.acceptedPerSecond / plain.acceptedPerSecond,
				throughputWithoutMemory:
					withoutMemory && withoutMemory.acceptedPerSecond / plain.acceptedPerSecond,
				p50: ours.p50Ms / plain.p50Ms,
				p95: ours.p95Ms / plain.p95Ms,
			},
		];
	});
}

function webhookSection(
	version: string,
	record: PartRecord<WebhookMeasurement>,
	newest: PartRecord<unknown>,
): string[] {
	const settings = record.settings as Partial<WebhookOptions>;
	const lines = ['## Webhook throughput', '', ...runLine(record, newest)];
	lines.push(
		`${settings.deliveries} signed \`member.updated\` deliveries per burst, ${settings.rounds} bursts per contender and sender (alternating contenders); figures pool the bursts.`,
		'',
		'| sender | contender | accepted / sent | accepted per second | p50 send→ack (ms) | p95 send→ack (ms) | executions succeeded | burst start → all executions done (ms, median) |',
		'|---|---|---:|---:|---:|---:|---:|---:|',
	);
	for (const entry of record.measurements) {
		lines.push(
			`| ${entry.sender} | ${WEBHOOK_CONTENDER_LABELS[entry.contender]} | ${entry.accepted} / ${entry.sent} | ${decimal(entry.acceptedPerSecond)} | ` +
				`${decimal(entry.p50Ms)} | ${decimal(entry.p95Ms)} | ${entry.executionsSucceeded} | ${integer(entry.executionsDoneMs)} |`,
		);
	}
	lines.push('');
	for (const ratios of webhookRatios(record.measurements)) {
		const { sender, throughput, throughputWithoutMemory, p50, p95 } = ratios;
		const withoutMemory =
			throughputWithoutMemory === undefined
				? ''
				: `; with Ignore Duplicate Deliveries off (no duplicate memory, nothing saved) ${decimal(throughputWithoutMemory, 3)}`;
		lines.push(
			`- **${sender}** (${SENDER_DESCRIPTIONS[sender](settings)}): accepted/s ours ÷ plain Webhook node = ${againstThroughputGoal(version, throughput, false)}` +
				`${withoutMemory}; p50 ours ÷ plain ${decimal(p50, 2)}, p95 ours ÷ plain ${decimal(p95, 2)}.`,
		);
	}
	lines.push('', ...executionSizeLines(record.executionSizes ?? []));
	return lines;
}

/**
 * The trigger's static data rides along in every execution record (n8n 2.8; 2.41 stores none
 * there); the goal keeps it small with a full memory.
 */
const STATIC_DATA_GOAL_BYTES = 16 * 1024;

function executionSizeLines(sizes: ExecutionRecordSize[]): string[] {
	if (sizes.length === 0) return [];
	const lines = [
		'### Execution record size',
		'',
		`The newest execution of each workflow after the bursts (our trigger's duplicate memory full), as n8n stores it (\`GET /rest/executions/:id\`): bytes of JSON.`,
		'',
		'| contender | execution | workflowData | of which static data | run data | record (workflowData + run data) |',
		'|---|---:|---:|---:|---:|---:|',
	];
	for (const size of sizes) {
		lines.push(
			`| ${WEBHOOK_CONTENDER_LABELS[size.contender]} | ${size.executionId} | ${integer(size.workflowDataBytes)} | ${integer(size.staticDataBytes)} | ` +
				`${integer(size.runDataBytes)} | ${integer(size.workflowDataBytes + size.runDataBytes)} |`,
		);
	}
	const ours = sizes.find((size) => size.contender === 'ourTrigger');
	const plain = sizes.find((size) => size.contender === 'plainWebhook');
	if (ours && plain) {
		const added = ours.staticDataBytes - plain.staticDataBytes;
		lines.push(
			'',
			`- The trigger's static data adds **${integer(added)} bytes** to each execution record (goal ≤ ${STATIC_DATA_GOAL_BYTES / 1024} KB: ${verdict(added <= STATIC_DATA_GOAL_BYTES)}); ` +
				`whole record ours ÷ plain Webhook node = ${decimal((ours.workflowDataBytes + ours.runDataBytes) / (plain.workflowDataBytes + plain.runDataBytes), 2)}.`,
		);
	}
	lines.push('');
	return lines;
}

const METHOD = [
	'## Method',
	'',
	"- **Lines.** `npm run bench` measures every tested n8n line (`scripts/n8n/lines.json`) one after the other, each in a child process with its own n8n, on the Node that line runs on; the sandbox and the load generator run in the benchmark process on the machine's Node for every line, so only n8n and its Node differ between the columns.",
	'- **One run, alternating contenders.** Sizes go up (the sandbox is seeded through `POST /__sandbox/seed/members`, so seeding is not measured); at each size the three contenders run in a rotated order, each `--repeat` times in a row (time = median).',
	"- **Our node and the HTTP Request node** run in the same real n8n of the line measured (`n8n start`, SQLite, regular mode), our package installed from its `npm pack` tarball as n8n installs community packages. Each workflow starts with a Webhook node answering when the last node finishes. **Time** is the node execution time n8n recorded (`executionTime` of the node's run data, read through the public API with `includeData=true`), so n8n's start-up, the webhook and saving the execution are not counted. The HTTP Request node's time adds its Split Out node (`data` → one item per member, as ours outputs).",
	'- **HTTP Request node 4.2 configuration** (as its docs suggest for a cursor API): `GET {base}/members`, query `limit=100`, Bearer credential (`httpBearerAuth`), pagination "Update a Parameter in Each Request" with query `cursor = {{ $response.body.next_cursor }}`, complete when `{{ !$response.body.has_more }}`, no interval.',
	"- **Plain loop (the limit)**: `bench/plain-loop.ts` in a fresh `node` process per run, on the line's Node: `fetch` with `limit=100` following `next_cursor`, records pushed into one array; one warm-up request to `/organization` first (n8n contenders get a warm-up run too).",
	"- **Requests** are counted by the sandbox's request log (`GET /__sandbox/requests`, `GET /api/v1/members` only).",
	"- **Memory, two ways.** Every n8n measurement starts a fresh n8n process (its heap never shrinks back after a run) and does one warm-up run of the same workflow against a second organization with 250 members; memory is taken in the first measured run. (1) **RSS**, as the issue asks: the n8n main process is sampled every 10 ms from `/proc/<pid>/status` (VmHWM would include start-up); growth = highest sample inside the measured nodes' time window − median idle RSS just before. The loop samples its own RSS every 10 ms; growth = peak − RSS before its first `/members` request. RSS growth depends on heap the process had already reserved: a long-running n8n holds spare heap from start-up, a fresh 90 MB process must grow, so RSS flatters n8n at every N. (2) **Heap**, measured the same way in both: heap in use after a forced full GC just before the run, then `process.memoryUsage().heapUsed` sampled every 10 ms inside the process (for n8n by `bench/n8n-probe.cjs`, preloaded with `NODE_OPTIONS=--require`); growth = peak inside the window − the post-GC baseline. Both include garbage not yet collected. The loop's heap after the loop and a GC (records still held) is listed as a part: the records' own size.",
	`- **Webhooks.** Our trigger (active, \`member.updated\`, its endpoint registered with the sandbox on activation), the same trigger in a second workflow with *Ignore Duplicate Deliveries* off (every signature verified, no duplicate memory, so n8n has no static data to save after a delivery: what the memory costs), and a plain Webhook node (\`POST\`, respond immediately, registered with the sandbox by hand) in the same n8n. Two senders: (1) the load generator in \`bench/webhooks.ts\` signs each distinct envelope as the sandbox does (\`t=<unix>,v1=<HMAC-SHA256 of "t.body">\` with the endpoint's secret) and sends the same requests to each, with bounded concurrency over keep-alive connections; send→ack runs from writing the request to the end of n8n's answer. (2) The sandbox's own delivery engine: the events are emitted with only the measured endpoint enabled, every delivery starts as soon as it is queued, and times come from the delivery records (created → delivered, ms). Warm-up: 25 deliveries per sender and contender, all of which must be acknowledged; then as many distinct deliveries as the trigger's duplicate memory keeps (${ENVELOPE_MEMORY_LIMITS.maxEntries.toLocaleString('en')}) go to each contender, so the trigger is measured with a full memory (every delivery is verified, checked against it and recorded). The contenders take turns: A B C, then C B A. Executions are counted through n8n's public API after each burst. **Execution record size**: the newest execution of each workflow after the bursts, read as stored through \`GET /rest/executions/:id\`: \`workflowData\` (with the workflow's static data, which n8n copies into every record) and the run data string.`,
	'- **Profiling**: `npx tsx bench/run.ts <part> --profile` has the probe record a CPU profile of n8n for exactly each measured run, in `bench/.work/profiles/`; `npx tsx bench/profile-summary.ts <file>` prints self time by package and function. `n8n CPU ms` in the parts column is the CPU time of n8n (`/proc/<pid>/stat`) from the webhook call to its answer, saving the execution included.',
	'- The sandbox runs in the benchmark process on 127.0.0.1 with its rate limit lifted. On a shared 2-core machine wall times move by 10–20 % from run to run.',
	'',
];

/** "n8n 2.41.1 on Node v24.11.1" */
function lineLabel(line: LineResults): string {
	const record = line.pagination ?? line.scale ?? line.webhooks;
	return `n8n ${line.version} on Node ${record?.machine.node ?? '?'}`;
}

/** One more `#` on every heading: a part's section inside its line's section. */
function nested(lines: string[]): string[] {
	return lines.map((line) => (line.startsWith('#') ? `#${line}` : line));
}

/** A table with one column per line; a cell is '–' where a line lacks the figure. */
function sideBySide<Row>(
	lines: LineResults[],
	header: string[],
	rows: Row[],
	label: (row: Row) => string[],
	cell: (line: LineResults, row: Row) => string | undefined,
): string[] {
	const versions = lines.map((line) => `n8n ${line.version}`);
	return [
		`| ${[...header, ...versions].join(' | ')} |`,
		`|${header.map(() => '---').join('|')}|${versions.map(() => '---:').join('|')}|`,
		...rows.map(
			(row) => `| ${[...label(row), ...lines.map((line) => cell(line, row) ?? '–')].join(' | ')} |`,
		),
	];
}

function unique<T>(values: T[], key: (value: T) => string): T[] {
	return [...new Map(values.map((value) => [key(value), value])).values()];
}

function sideBySideSection(lines: LineResults[]): string[] {
	const out = [
		'## The lines side by side',
		'',
		`Each line runs in its own n8n (${lines.map(lineLabel).join('; ')}), one after the other in the same \`npm run bench\`, against the same sandbox; the plain fetch loop runs on the line's Node. The full tables of each line follow.`,
		'',
	];
	const paginationOf = (line: LineResults) => line.pagination ?? line.scale;
	const measured = lines.flatMap((line) => paginationOf(line)?.measurements ?? []);
	if (measured.length > 0) {
		const rows = unique(measured, (entry) => `${entry.size}/${entry.contender}`).sort(
			(a, b) =>
				a.size - b.size || CONTENDERS.indexOf(a.contender) - CONTENDERS.indexOf(b.contender),
		);
		out.push(
			'### Pagination: time to read every member (ms, median)',
			'',
			...sideBySide(
				lines,
				['N', 'contender'],
				rows,
				(row) => [integer(row.size), CONTENDER_LABELS[row.contender]],
				(line, row) => {
					const entry = find(paginationOf(line)?.measurements ?? [], row.contender, row.size);
					return entry && integer(entry.wallMs);
				},
			),
			'',
		);
		const targets = unique(
			lines.flatMap((line) => paginationTargets(paginationOf(line)?.measurements ?? [])),
			(target) => `${target.name}/${target.size}`,
		);
		out.push(
			'### Pagination targets',
			'',
			...sideBySide(
				lines,
				['target', 'N'],
				targets,
				(target) => [target.name, integer(target.size)],
				(line, target) => {
					const own = paginationTargets(paginationOf(line)?.measurements ?? []).find(
						(candidate) => candidate.name === target.name && candidate.size === target.size,
					);
					return own && `${own.figure} ${own.met ? '✅' : '❌'}`;
				},
			),
			'',
		);
	}
	const webhookMeasurements = lines.flatMap((line) => line.webhooks?.measurements ?? []);
	if (webhookMeasurements.length > 0) {
		const rows = unique(webhookMeasurements, (entry) => `${entry.sender}/${entry.contender}`);
		out.push(
			'### Webhooks: accepted deliveries per second (p50 send→ack, ms)',
			'',
			...sideBySide(
				lines,
				['sender', 'contender'],
				rows,
				(row) => [row.sender, WEBHOOK_CONTENDER_LABELS[row.contender]],
				(line, row) => {
					const entry = line.webhooks?.measurements.find(
						(candidate) => candidate.sender === row.sender && candidate.contender === row.contender,
					);
					return entry && `${decimal(entry.acceptedPerSecond)} (${decimal(entry.p50Ms)})`;
				},
			),
			'',
			...sideBySide(
				lines,
				['sender', 'ratio'],
				SENDERS.filter((sender) => rows.some((row) => row.sender === sender)).flatMap((sender) => [
					{ sender, withoutMemory: false },
					{ sender, withoutMemory: true },
				]),
				({ sender, withoutMemory }) => [
					sender,
					withoutMemory
						? 'accepted/s ours with Ignore Duplicate Deliveries off ÷ plain Webhook node'
						: 'accepted/s ours ÷ plain Webhook node',
				],
				(line, { sender, withoutMemory }) => {
					const ratio = webhookRatios(line.webhooks?.measurements ?? []).find(
						(candidate) => candidate.sender === sender,
					);
					if (withoutMemory) {
						return ratio?.throughputWithoutMemory === undefined
							? undefined
							: decimal(ratio.throughputWithoutMemory, 3);
					}
					return ratio && againstThroughputGoal(line.version, ratio.throughput, true);
				},
			),
			'',
		);
	}
	return out;
}

function lineSection(line: LineResults): string[] {
	const newest = [line.pagination, line.scale, line.webhooks]
		.filter((record): record is PartRecord<never> => record !== undefined)
		.reduce((a, b) => (a.finishedAt > b.finishedAt ? a : b));
	const out = [`## ${lineLabel(line)}`, '', `Machine: ${describeMachine(newest.machine)}.`, ''];
	if (line.pagination) out.push(...nested(paginationSection(line.pagination, newest)));
	// Scale reads the pagination figures of the same run unless it was run alone afterwards.
	const scaleRecord =
		line.scale && (!line.pagination || line.scale.finishedAt > line.pagination.finishedAt)
			? line.scale
			: line.pagination;
	if (scaleRecord) out.push(...nested(scaleSection(scaleRecord, newest)));
	if (line.webhooks) out.push(...nested(webhookSection(line.version, line.webhooks, newest)));
	return out;
}

/** Both lines' time against N, one colour per contender, the older lines dashed. */
function writePlot(lines: LineResults[]): void {
	const plotted = lines.filter((line) => line.pagination ?? line.scale);
	if (plotted.length === 0) return;
	const series = plotted.flatMap((line, index) => {
		const record = (line.pagination ?? line.scale)!;
		const faded = index < plotted.length - 1;
		return CONTENDERS.filter((contender) =>
			record.measurements.some((entry) => entry.contender === contender),
		).map((contender) => ({
			label: `${CONTENDER_LABELS[contender]} · n8n ${line.version}`,
			color: CONTENDER_COLORS[contender],
			faded,
			points: record.measurements
				.filter((entry) => entry.contender === contender)
				.map((entry) => ({ x: entry.size, y: Math.max(1, entry.wallMs) })),
		}));
	});
	const first = (plotted[0].pagination ?? plotted[0].scale)!;
	writePng(
		lineChartSvg({
			title: 'Reading every member: time against N (log-log)',
			subtitle: `${plotted.map(lineLabel).join(' (dashed) vs ')}; ${first.machine.cores} cores; time = median of ${(first.settings as { repeat?: number }).repeat ?? 1} run(s)`,
			xLabel: 'members (N)',
			yLabel: 'time',
			series,
		}),
		PLOT_PNG,
	);
}

/** Rewrites RESULTS.md (and the plot) from every line's last results. */
export function writeResults(): void {
	const lines = measuredLines();
	if (lines.length === 0) return;
	const out = [
		'# Benchmark results',
		'',
		'Written by `npm run bench` (every tested n8n line; one line: `N8N_VERSION=2.8.4 npm run bench`; one part: `npx tsx bench/run.ts pagination|webhooks|scale`); do not edit by hand. Where the time goes, from profiles: [FINDINGS.md](FINDINGS.md) (2.8.4) and [FINDINGS-2.41.md](FINDINGS-2.41.md).',
		'',
		...sideBySideSection(lines),
		...lines.flatMap(lineSection),
		...METHOD,
	];
	writeFileSync(RESULTS_MARKDOWN, out.join('\n'));
	writePlot(lines);
}
