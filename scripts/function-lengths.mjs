/**
 * The length in lines of every function in the given TypeScript files or folders, longest first,
 * from the line of its first token (JSDoc left out) to the line of its closing brace.
 *   node scripts/function-lengths.mjs nodes/shared/transport credentials [--over 50]
 * Exits 1 when `--over N` is given and a function is longer than N lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

function sourcesUnder(path) {
	if (!statSync(path).isDirectory()) return [path];
	return readdirSync(path).flatMap((name) => {
		const child = join(path, name);
		if (statSync(child).isDirectory()) return sourcesUnder(child);
		return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [child] : [];
	});
}

function nameOf(node) {
	if (node.name) return node.name.getText();
	const parent = node.parent;
	if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
		return parent.name.getText();
	if (ts.isPropertyDeclaration(parent)) return parent.name.getText();
	return '(anonymous)';
}

function functionLengths(file) {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const lengths = [];
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			lengths.push({
				file: relative(process.cwd(), file),
				line: first + 1,
				name: nameOf(node),
				lines: last - first + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return lengths;
}

const args = process.argv.slice(2);
const overAt = args.indexOf('--over');
const over = overAt === -1 ? undefined : Number(args[overAt + 1]);
const paths = args.filter(
	(_arg, index) => overAt === -1 || (index !== overAt && index !== overAt + 1),
);

const all = paths.flatMap(sourcesUnder).flatMap(functionLengths);
all.sort((a, b) => b.lines - a.lines);
for (const entry of all) {
	if (over === undefined || entry.lines > over) {
		console.log(`${String(entry.lines).padStart(4)}  ${entry.file}:${entry.line}  ${entry.name}`);
	}
}
if (over !== undefined && all.some((entry) => entry.lines > over)) process.exitCode = 1;
