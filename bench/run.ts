/**
 * `npm run bench` runs every part; `tsx bench/run.ts pagination|webhooks|scale [...]` runs some.
 * Options: `--sizes=1000,10000` (pagination/scale), `--deliveries=500`, `--concurrency=16`
 * (webhooks), `--contenders=ours,plainLoop` (pagination).
 */
import { BenchEnvironment } from './environment';
import {
	CONTENDERS,
	DEFAULT_SIZES,
	runPagination,
	type Contender,
} from './pagination';

const PARTS = ['pagination', 'webhooks', 'scale'] as const;
type Part = (typeof PARTS)[number];

interface BenchArguments {
	parts: Part[];
	sizes: number[];
	contenders: Contender[];
	deliveries: number;
	concurrency: number;
}

function parseArguments(argv: string[]): BenchArguments {
	const options = new Map<string, string>();
	const parts: Part[] = [];
	for (const argument of argv) {
		const option = /^--([a-z]+)=(.*)$/.exec(argument);
		if (option) options.set(option[1], option[2]);
		else if ((PARTS as readonly string[]).includes(argument)) parts.push(argument as Part);
		else throw new Error(`Unknown argument "${argument}". Parts: ${PARTS.join(', ')}`);
	}
	const list = (name: string) => options.get(name)?.split(',').filter(Boolean);
	const contenders = (list('contenders') ?? [...CONTENDERS]) as Contender[];
	for (const contender of contenders) {
		if (!CONTENDERS.includes(contender)) throw new Error(`Unknown contender "${contender}"`);
	}
	return {
		parts: parts.length > 0 ? parts : [...PARTS],
		sizes: list('sizes')?.map(Number) ?? DEFAULT_SIZES,
		contenders,
		deliveries: Number(options.get('deliveries') ?? 500),
		concurrency: Number(options.get('concurrency') ?? 16),
	};
}

function log(line: string): void {
	console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function main(): Promise<void> {
	const args = parseArguments(process.argv.slice(2));
	log('Starting the sandbox and n8n 2.8.4 with the package installed');
	const env = await BenchEnvironment.start();
	try {
		if (args.parts.includes('pagination')) {
			const measurements = await runPagination(env, { sizes: args.sizes, contenders: args.contenders, log });
			console.log(JSON.stringify(measurements, null, 2));
		}
	} finally {
		await env.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
