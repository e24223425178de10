/**
 * Two rules of n8n's community-node lint plugin that exist on n8n's master branch but not in the
 * @n8n/eslint-plugin-community-nodes 0.32.0 this package's `n8n-node lint` runs, re-implemented
 * here so the test suite can hold our sources to them before a node-cli release ships them:
 *
 * - `require-continue-on-fail`: every `execute()` method of a node class (a class that
 *   `implements INodeType`, or `extends Node`) must contain a `this.continueOnFail()` call
 *   somewhere in its body.
 * - `node-operation-error-itemindex`: in a `*.node.ts` file, inside a node class's `execute()`,
 *   a `new NodeOperationError(...)` / `new NodeApiError(...)` inside an item loop must pass
 *   `{ itemIndex }` as its third argument. An item loop is a `for` whose test reads `<items>.length`,
 *   or a `for...of` over `<items>` or over `this.getInputData()`, where `<items>` is a variable
 *   declared (before the loop) from `this.getInputData()`. A third argument that is not an object
 *   literal, or an object literal with a spread, is given the benefit of the doubt.
 *
 * Credit: the rules are n8n's (n8n-io/n8n, packages/@n8n/eslint-plugin-community-nodes/src/rules/
 * require-continue-on-fail.ts and node-operation-error-itemindex.ts, read 2026-11-23). This file
 * is our own port of their decision logic onto a plain walk over typescript-eslint's ESTree (the
 * parser `npm run lint` already uses); none of n8n's code is copied. Remove it once the
 * node-cli's plugin carries both rules.
 *
 * `itemIndexInScope: true` adds this package's stricter form of the second rule, since our
 * `execute()` hands the item loop to `actions/router.ts`, where the master rule does not look:
 * wherever an `itemIndex` is in scope (a parameter of the enclosing function, or the variable of
 * an enclosing `for` loop), a `new NodeOperationError(...)` / `new NodeApiError(...)` must pass
 * `{ itemIndex }`. Code without an item at hand (the shared transport, also used by list searches
 * and the trigger) is left to the router, which marks every error it rethrows with the item's
 * index; the engine tests check that at run time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parser } from 'typescript-eslint';

type Node = { type: string; name?: string; value?: unknown; [key: string]: unknown };

export interface Finding {
	rule: 'require-continue-on-fail' | 'node-operation-error-itemindex';
	file: string;
	line: number;
	message: string;
}

const SKIP_KEYS = new Set(['parent', 'loc', 'range', 'tokens', 'comments']);
const ITEM_ERROR_CLASSES = new Set(['NodeOperationError', 'NodeApiError']);

function children(node: Node): Node[] {
	const result: Node[] = [];
	for (const [key, value] of Object.entries(node)) {
		if (SKIP_KEYS.has(key)) continue;
		const candidates = Array.isArray(value) ? value : [value];
		for (const child of candidates) {
			if (child && typeof child === 'object' && typeof (child as Node).type === 'string') {
				result.push(child as Node);
			}
		}
	}
	return result;
}

function* walk(node: Node): Generator<Node> {
	yield node;
	for (const child of children(node)) yield* walk(child);
}

function line(node: Node): number {
	return (node.loc as { start: { line: number } }).start.line;
}

function isThisCall(node: Node, method: string): boolean {
	if (node.type !== 'CallExpression') return false;
	const callee = node.callee as Node;
	return (
		callee.type === 'MemberExpression' &&
		(callee.object as Node).type === 'ThisExpression' &&
		(callee.property as Node).type === 'Identifier' &&
		(callee.property as Node).name === method
	);
}

/** A class that implements INodeType (also `INodeType` qualified, e.g. `n8n.INodeType`) or extends Node. */
function isNodeTypeClass(node: Node): boolean {
	const superClass = node.superClass as Node | null;
	if (superClass?.type === 'Identifier' && superClass.name === 'Node') {
		return true;
	}
	const implemented = (node.implements as Node[] | undefined) ?? [];
	return implemented.some((heritage) => {
		const expression = heritage.expression as Node;
		if (expression.type === 'Identifier') return expression.name === 'INodeType';
		return expression.type === 'TSQualifiedName' && (expression.right as Node).name === 'INodeType';
	});
}

function executeMethods(classNode: Node): Node[] {
	const body = (classNode.body as { body: Node[] }).body;
	return body.filter(
		(member) =>
			member.type === 'MethodDefinition' &&
			(member.key as Node).type === 'Identifier' &&
			(member.key as Node).name === 'execute',
	);
}

function hasItemIndexOption(newExpression: Node): boolean {
	const args = newExpression.arguments as Node[];
	if (args.length < 3) return false;
	const options = args[2];
	if (options.type !== 'ObjectExpression') return true;
	const properties = options.properties as Node[];
	if (properties.some((property) => property.type === 'SpreadElement')) return true;
	return properties.some((property) => {
		const key = property.key as Node;
		return (
			(key.type === 'Identifier' && key.name === 'itemIndex') ||
			(key.type === 'Literal' && key.value === 'itemIndex')
		);
	});
}

function isLengthOf(node: Node, names: Set<string>): boolean {
	const object = node.object as Node | undefined;
	const property = node.property as Node | undefined;
	return (
		node.type === 'MemberExpression' &&
		!node.computed &&
		property?.type === 'Identifier' &&
		property.name === 'length' &&
		object?.type === 'Identifier' &&
		names.has(object.name ?? '')
	);
}

function isItemLoop(node: Node, itemVariables: Set<string>): boolean {
	if (node.type === 'ForStatement') {
		const test = node.test as Node | null;
		return (
			test?.type === 'BinaryExpression' &&
			(isLengthOf(test.left as Node, itemVariables) ||
				isLengthOf(test.right as Node, itemVariables))
		);
	}
	if (node.type === 'ForOfStatement') {
		const right = node.right as Node;
		return (
			(right.type === 'Identifier' && itemVariables.has(right.name ?? '')) ||
			isThisCall(right, 'getInputData')
		);
	}
	return false;
}

/**
 * Walks a function body in source order, remembering variables set from `this.getInputData()`
 * and reporting item-error constructions without itemIndex inside item loops.
 */
function checkItemLoops(body: Node, report: (node: Node, errorClass: string) => void): void {
	const itemVariables = new Set<string>();
	const visit = (node: Node, loopDepth: number): void => {
		if (
			node.type === 'VariableDeclarator' &&
			(node.id as Node).type === 'Identifier' &&
			node.init &&
			isThisCall(node.init as Node, 'getInputData')
		) {
			itemVariables.add((node.id as Node).name ?? '');
		}
		const depth = isItemLoop(node, itemVariables) ? loopDepth + 1 : loopDepth;
		const errorClass = itemErrorWithoutIndex(node);
		if (depth > 0 && errorClass) report(node, errorClass);
		for (const child of children(node)) visit(child, depth);
	};
	visit(body, 0);
}

/** The class of a `new NodeOperationError/NodeApiError(…)` that passes no itemIndex, if `node` is one. */
function itemErrorWithoutIndex(node: Node): string | undefined {
	if (node.type !== 'NewExpression' || (node.callee as Node).type !== 'Identifier')
		return undefined;
	const errorClass = (node.callee as Node).name ?? '';
	return ITEM_ERROR_CLASSES.has(errorClass) && !hasItemIndexOption(node) ? errorClass : undefined;
}

function hasItemIndexBinding(pattern: Node): boolean {
	if (pattern.type === 'Identifier') return pattern.name === 'itemIndex';
	if (pattern.type === 'AssignmentPattern') return hasItemIndexBinding(pattern.left as Node);
	if (pattern.type === 'ObjectPattern') {
		return (pattern.properties as Node[]).some((property) =>
			hasItemIndexBinding(
				(property.type === 'RestElement' ? property.argument : property.value) as Node,
			),
		);
	}
	return false;
}

/** Item-error constructions without itemIndex where an `itemIndex` binding is in scope. */
function checkItemIndexInScope(ast: Node, report: (node: Node, errorClass: string) => void): void {
	const visit = (node: Node, inScope: boolean): void => {
		let scope = inScope;
		if (
			node.type === 'FunctionDeclaration' ||
			node.type === 'FunctionExpression' ||
			node.type === 'ArrowFunctionExpression'
		) {
			scope = inScope || (node.params as Node[]).some(hasItemIndexBinding);
		}
		if (
			node.type === 'ForStatement' &&
			(node.init as Node | null)?.type === 'VariableDeclaration'
		) {
			const declarations = (node.init as { declarations: Node[] }).declarations;
			if (declarations.some((declaration) => hasItemIndexBinding(declaration.id as Node))) {
				scope = true;
			}
		}
		const errorClass = itemErrorWithoutIndex(node);
		if (scope && errorClass) report(node, errorClass);
		for (const child of children(node)) visit(child, scope);
	};
	visit(ast, false);
}

export function checkSource(
	file: string,
	code: string,
	options: { itemIndexInScope?: boolean } = {},
): Finding[] {
	// typescript-eslint types its parser loosely (one argument); @typescript-eslint/parser takes options.
	const parse = parser.parseForESLint as (code: string, options: object) => { ast: unknown };
	const ast = parse(code, { loc: true, range: true, sourceType: 'module' }).ast as Node;
	const findings: Finding[] = [];
	const reportItemIndex = (node: Node, errorClass: string) =>
		findings.push({
			rule: 'node-operation-error-itemindex',
			file,
			line: line(node),
			message: `\`new ${errorClass}(...)\` must include \`{ itemIndex }\` as the third argument`,
		});

	for (const node of walk(ast)) {
		if (node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression') continue;
		if (!isNodeTypeClass(node)) continue;
		for (const method of executeMethods(node)) {
			const body = (method.value as Node).body as Node | null;
			if (!body) continue;
			let callsContinueOnFail = false;
			for (const inner of walk(body)) {
				if (isThisCall(inner, 'continueOnFail')) callsContinueOnFail = true;
			}
			if (!callsContinueOnFail) {
				findings.push({
					rule: 'require-continue-on-fail',
					file,
					line: line(method),
					message: 'execute() must handle this.continueOnFail()',
				});
			}
			if (file.endsWith('.node.ts')) checkItemLoops(body, reportItemIndex);
		}
	}
	if (options.itemIndexInScope) checkItemIndexInScope(ast, reportItemIndex);

	const seen = new Set<string>();
	return findings.filter((finding) => {
		const key = `${finding.rule}:${finding.file}:${finding.line}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** Every .ts file under the given folders, recursively (paths relative to `root`). */
export function sourceFiles(root: string, folders: string[]): string[] {
	const files: string[] = [];
	const visit = (relative: string) => {
		for (const entry of readdirSync(`${root}/${relative}`, { withFileTypes: true })) {
			const path = `${relative}/${entry.name}`;
			if (entry.isDirectory()) visit(path);
			else if (entry.name.endsWith('.ts')) files.push(path);
		}
	};
	folders.forEach(visit);
	return files.sort();
}

/** Both rules (and the stricter itemIndex form) over the package's nodes/ and credentials/. */
export function checkPackage(root: string): { files: string[]; findings: Finding[] } {
	const files = sourceFiles(root, ['nodes', 'credentials']);
	const findings = files.flatMap((file) =>
		checkSource(file, readFileSync(join(root, file), 'utf8'), { itemIndexInScope: true }),
	);
	return { files, findings };
}

// `npx tsx test/support/master-lint-rules.ts`: prints what the rules find in this package.
if (require.main === module) {
	const { files, findings } = checkPackage(join(__dirname, '..', '..'));
	for (const finding of findings) {
		console.log(`${finding.file}:${finding.line}  ${finding.rule}  ${finding.message}`);
	}
	console.log(
		`require-continue-on-fail, node-operation-error-itemindex (master-branch logic + itemIndex in scope): ` +
			`${files.length} files, ${findings.length} finding(s)`,
	);
	process.exitCode = findings.length > 0 ? 1 : 0;
}
