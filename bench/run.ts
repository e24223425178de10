/**
 * `npm run bench` runs every part on every tested n8n line (scripts/n8n/lines.json), one line after
 * the other, each in a child process of its own (the n8n harness reads its line once, from
 * N8N_VERSION); `npx tsx bench/run.ts pagination|webhooks|scale [...]` runs some parts.
 * Options:
 *   --lines=2.8.4,2.41.1                      n8n lines (default: all tested, or N8N_VERSION if set)
 *   --sizes=1000,10000,100000                 pagination, scale
 *   --contenders=ours,httpRequest,plainLoop   pagination
 *   --repeat=3                                runs per contender and size (time: their median)
 *   --deliveries=500 --concurrency=16 --rounds=2   webhooks
 *   --profile                                 CPU profiles of n8n during each measured run, in
 *                                             bench/.work/profiles (bench/profile-summary.ts reads them)
 * Every run rewrites bench/RESULTS.md and bench/pagination.png from the parts' last results.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { BENCH_WORK_FOLDER, BenchEnvironment } from './environment';
import {
	CONTENDERS,
	DEFAULT_SIZES,
	runPagination,
	type Contender,
	type PaginationMeasurement,
} from './pagination';
import { machineInfo, RESULTS_MARKDOWN, savePart, writeResults } from './report';
import { runWebhooks } from './webhooks';
import { N8N_LINES, N8N_VERSION, runtimeDescription } from '../harness/n8n';

const PARTS = ['pagination', 'webhooks', 'scale'] as const;
type Part = (typeof PARTS)[number];

const PROFILES_FOLDER = join(BENCH_WORK_FOLDER, 'profiles');

/** Scale run alone measures what it reports on: our node, against the limit. */
const SCALE_CONTENDERS: Contender[] = ['ours', 'plainLoop'];

interface BenchArguments {
	parts: Part[];
	lines: string[];
	sizes: number[];
	contenders: Contender[];
	repeat: number;
	deliveries: number;
	concurrency: number;
	rounds: number;
	/** Write V8 CPU profiles of n8n to bench/.work/profiles (see bench/profile-summary.ts). */
	profile: boolean;
}

function parseArguments(argv: string[]): BenchArguments {
	const options = new Map<string, string>();
	const parts: Part[] = [];
	for (const argument of argv) {
		const option = /^--([a-z]+)(?:=(.*))?$/.exec(argument);
		if (option) options.set(option[1], option[2] ?? 'true');
		else if ((PARTS as readonly string[]).includes(argument)) parts.push(argument as Part);
		else throw new Error(`Unknown argument "${argument}". Parts: ${PARTS.join(', ')}`);
	}
	const list = (name: string) => options.get(name)?.split(',').filter(Boolean);
	const contenders = (list('contenders') ?? [...CONTENDERS]) as Contender[];
	for (const contender of contenders) {
		if (!CONTENDERS.includes(contender)) throw new Error(`Unknown contender "${contender}"`);
	}
	const sizes = list('sizes')?.map(Number) ?? DEFAULT_SIZES;
	if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
		throw new Error(`--sizes takes positive integers, got "${options.get('sizes')}"`);
	}
	const lines = list('lines') ?? (process.env.N8N_VERSION ? [process.env.N8N_VERSION] : undefined);
	return {
		parts: parts.length > 0 ? parts : [...PARTS],
		lines: lines ?? N8N_LINES.map((line) => line.n8n),
		sizes,
		contenders,
		repeat: Number(options.get('repeat') ?? 3),
		deliveries: Number(options.get('deliveries') ?? 500),
		concurrency: Number(options.get('concurrency') ?? 16),
		rounds: Number(options.get('rounds') ?? 2),
		profile: options.get('profile') === 'true',
	};
}

function log(line: string): void {
	console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

/** Set in the child process that measures one line. */
const LINE_CHILD = 'BENCH_LINE_CHILD';

/** One child per line, one after the other: two n8n processes at once would measure each other. */
function runEachLine(args: BenchArguments): void {
	const forwarded = process.argv.slice(2).filter((argument) => !argument.startsWith('--lines'));
	for (const version of args.lines) {
		log(`━━ n8n ${version}`);
		const child = spawnSync(
			process.execPath,
			[...process.execArgv, process.argv[1], ...forwarded],
			{
				stdio: 'inherit',
				env: { ...process.env, N8N_VERSION: version, [LINE_CHILD]: '1' },
			},
		);
		if (child.status !== 0)
			throw new Error(`The benchmark on n8n ${version} failed (exit ${child.status})`);
	}
}

async function main(): Promise<void> {
	const args = parseArguments(process.argv.slice(2));
	const startedAt = Date.now();
	if (!process.env[LINE_CHILD]) {
		runEachLine(args);
		writeResults();
		log(`Wrote ${RESULTS_MARKDOWN} in ${((Date.now() - startedAt) / 60_000).toFixed(1)} min`);
		return;
	}
	const machine = machineInfo();
	log(
		`Starting the sandbox and ${runtimeDescription()} (Node ${process.version} runs the bench and the sandbox) with the package installed (build and pack when stale)`,
	);
	const env = await BenchEnvironment.start({
		log,
		profileFolder: args.profile ? PROFILES_FOLDER : undefined,
	});
	try {
		let pagination: PaginationMeasurement[] | undefined;
		if (args.parts.includes('pagination')) {
			log(`Pagination: ${args.contenders.join(', ')} at N = ${args.sizes.join(', ')}`);
			pagination = await runPagination(env, {
				sizes: args.sizes,
				repeat: args.repeat,
				contenders: args.contenders,
				log,
			});
			savePart('pagination', {
				finishedAt: new Date().toISOString(),
				machine,
				settings: { sizes: args.sizes, repeat: args.repeat, contenders: args.contenders },
				measurements: pagination,
			});
		}
		if (args.parts.includes('scale') && !pagination) {
			log(`Scale: ${SCALE_CONTENDERS.join(', ')} at N = ${args.sizes.join(', ')}`);
			const measurements = await runPagination(env, {
				sizes: args.sizes,
				repeat: args.repeat,
				contenders: SCALE_CONTENDERS,
				log,
			});
			savePart('scale', {
				finishedAt: new Date().toISOString(),
				machine,
				settings: { sizes: args.sizes, repeat: args.repeat, contenders: SCALE_CONTENDERS },
				measurements,
			});
		}
		if (args.parts.includes('webhooks')) {
			// A fresh n8n process, not one that has just held 100,000 members.
			if (args.parts.includes('pagination') || args.parts.includes('scale')) await env.restartN8n();
			const settings = {
				deliveries: args.deliveries,
				concurrency: args.concurrency,
				rounds: args.rounds,
			};
			log(`Webhooks: ${JSON.stringify(settings)}`);
			const { measurements, executionSizes } = await runWebhooks(env, { ...settings, log });
			savePart('webhooks', {
				finishedAt: new Date().toISOString(),
				machine,
				settings,
				measurements,
				executionSizes,
			});
		}
	} finally {
		await env.stop();
	}
	log(`n8n ${N8N_VERSION} measured in ${((Date.now() - startedAt) / 60_000).toFixed(1)} min`);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
