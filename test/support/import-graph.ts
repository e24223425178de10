/**
 * The import graph of TypeScript sources and its cycles. Every module reference counts, `import
 * type` and `export … from` included: a type-only cycle still ties a bottom layer to the top.
 *   npx tsx test/support/import-graph.ts nodes credentials   (prints the cycles; exit 1 if any)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

function sourcesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return sourcesUnder(path);
		return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
	});
}

/** Each source file under `folders` → the source files under them it references. */
export function importGraph(folders: string[]): Map<string, string[]> {
	const files = folders.flatMap((folder) => sourcesUnder(resolve(folder)));
	const inGraph = new Set(files);
	const options: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Node10 };
	const graph = new Map<string, string[]>();
	for (const file of files) {
		const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
		const targets = importedFiles
			.map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule)
			.map((resolved) => resolved?.resolvedFileName)
			.filter((target): target is string => target !== undefined && inGraph.has(target));
		graph.set(file, [...new Set(targets)]);
	}
	return graph;
}

/** The strongly connected components of more than one file (or a file importing itself). */
export function importCycles(graph: Map<string, string[]>): string[][] {
	// Tarjan's algorithm.
	const index = new Map<string, number>();
	const lowLink = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const visit = (file: string): void => {
		index.set(file, index.size);
		lowLink.set(file, index.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
			} else if (onStack.has(target)) {
				lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
			}
		}
		if (lowLink.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || graph.get(file)!.includes(file)) cycles.push(component.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return cycles;
}

if (require.main === module) {
	const folders = process.argv.slice(2);
	const graph = importGraph(folders);
	const cycles = importCycles(graph);
	const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
	console.log(
		`${graph.size} files, ${edges} imports (type imports included) under ${folders.join(', ')}`,
	);
	for (const cycle of cycles) {
		console.log(
			`cycle of ${cycle.length} files:\n  ${cycle.map((file) => relative('.', file)).join('\n  ')}`,
		);
	}
	console.log(cycles.length === 0 ? 'no import cycle' : `${cycles.length} import cycle(s)`);
	process.exitCode = cycles.length === 0 ? 0 : 1;
}
