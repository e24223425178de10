/**
 * Where a V8 CPU profile spends its time: self time by function and by package.
 * For the profiles `npx tsx bench/run.ts ... --profile` takes of n8n.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--top=30]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

/** The package of the innermost `node_modules/@scope/name/…` in the URL (ours included). */
function packageOf(url: string): string {
	const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
	if (match) return match[1];
	if (url.startsWith('node:') || url === '') return '(node internals / native)';
	return url;
}

export function summarize(profile: CpuProfile, top: number): string {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	// Starting the profiler itself (bench/n8n-probe.cjs) costs a few hundred ms: not n8n's work.
	const profilerOwn = new Set<number>();
	const markProfilerOwn = (id: number) => {
		profilerOwn.add(id);
		for (const child of nodes.get(id)?.children ?? []) markProfilerOwn(child);
	};
	for (const node of profile.nodes) {
		if (node.callFrame.url.endsWith('n8n-probe.cjs')) markProfilerOwn(node.id);
	}
	const selfMicros = new Map<number, number>();
	for (const [index, id] of profile.samples.entries()) {
		selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
	}
	const byFunction = new Map<string, number>();
	const byPackage = new Map<string, number>();
	let total = 0;
	for (const [id, micros] of selfMicros) {
		if (profilerOwn.has(id)) continue;
		const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
		if (functionName === '(idle)' || functionName === '(program)') continue;
		total += micros;
		const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
		byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
		byPackage.set(packageOf(url), (byPackage.get(packageOf(url)) ?? 0) + micros);
	}
	const rows = (map: Map<string, number>) =>
		[...map.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, top)
			.map(
				([name, micros]) =>
					`${(micros / 1000).toFixed(0).padStart(8)} ms ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${name}`,
			)
			.join('\n');
	return [
		`Busy time: ${(total / 1000).toFixed(0)} ms`,
		'',
		'Self time by package:',
		rows(byPackage),
		'',
		'Self time by function:',
		rows(byFunction),
	].join('\n');
}

if (require.main === module) {
	const [path, ...options] = process.argv.slice(2);
	if (!path) {
		console.error('Usage: profile-summary.ts <file.cpuprofile> [--top=30]');
		process.exit(2);
	}
	const top = Number(/^--top=(\d+)$/.exec(options[0] ?? '')?.[1] ?? 30);
	console.log(summarize(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, top));
}
