/**
 * Holds nodes/ and credentials/ to two rules of n8n's master-branch community lint plugin that
 * the plugin version `npm run lint` runs (0.32.0) does not have yet: require-continue-on-fail and
 * node-operation-error-itemindex (see test/support/master-lint-rules.ts for the port and its
 * credit). The first block proves the port flags what the rules flag, so a clean result on our
 * sources means something.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { checkPackage, checkSource } from '../support/master-lint-rules';

const ROOT = join(__dirname, '..', '..');

const nodeClass = (execute: string, header = 'implements INodeType') => `
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
export class Example ${header} {
	description = {};
	async execute(this: IExecuteFunctions) {
${execute}
	}
}`;

const rulesOf = (findings: Array<{ rule: string }>) => findings.map((finding) => finding.rule);

describe('the port flags what the master-branch rules flag', () => {
	it('require-continue-on-fail: an execute() that never calls this.continueOnFail()', () => {
		const code = nodeClass('return await router.call(this);');
		expect(rulesOf(checkSource('A.node.ts', code))).toEqual(['require-continue-on-fail']);
		expect(rulesOf(checkSource('A.node.ts', nodeClass('return [];', 'extends Node')))).toEqual([
			'require-continue-on-fail',
		]);
	});

	it('require-continue-on-fail: satisfied by a call anywhere in execute(), not by one elsewhere', () => {
		expect(
			checkSource('A.node.ts', nodeClass('const c = this.continueOnFail(); return run(c);')),
		).toEqual([]);
		const elsewhere = `${nodeClass('return [];')}\nfunction helper(this: any) { return this.continueOnFail(); }`;
		expect(rulesOf(checkSource('A.node.ts', elsewhere))).toEqual(['require-continue-on-fail']);
	});

	it('require-continue-on-fail: ignores classes that are not nodes', () => {
		expect(checkSource('A.ts', 'class Helper { async execute() { return []; } }')).toEqual([]);
	});

	it('node-operation-error-itemindex: an item error without itemIndex in an item loop', () => {
		const body = (loop: string, options: string) => `
		if (this.continueOnFail()) {}
		const items = this.getInputData();
		${loop} {
			throw new NodeOperationError(this.getNode(), 'bad'${options});
		}`;
		const forLoop = 'for (let i = 0; i < items.length; i++)';
		const forOf = 'for (const item of items)';
		const forOfCall = 'for (const item of this.getInputData())';
		for (const loop of [forLoop, forOf, forOfCall]) {
			expect(rulesOf(checkSource('A.node.ts', nodeClass(body(loop, ''))))).toEqual([
				'node-operation-error-itemindex',
			]);
			expect(
				rulesOf(checkSource('A.node.ts', nodeClass(body(loop, ', { description: "x" }')))),
			).toEqual(['node-operation-error-itemindex']);
			expect(checkSource('A.node.ts', nodeClass(body(loop, ', { itemIndex: 0 }')))).toEqual([]);
			// Not an object literal, or a spread: the rule gives the benefit of the doubt.
			expect(checkSource('A.node.ts', nodeClass(body(loop, ', options')))).toEqual([]);
			expect(checkSource('A.node.ts', nodeClass(body(loop, ', { ...options }')))).toEqual([]);
		}
	});

	it('node-operation-error-itemindex: only in item loops of a *.node.ts execute()', () => {
		const outsideLoop = nodeClass(`
		if (this.continueOnFail()) {}
		throw new NodeApiError(this.getNode(), {});`);
		expect(checkSource('A.node.ts', outsideLoop)).toEqual([]);
		const otherLoop = nodeClass(`
		if (this.continueOnFail()) {}
		for (let i = 0; i < 3; i++) { throw new NodeApiError(this.getNode(), {}); }`);
		expect(checkSource('A.node.ts', otherLoop)).toEqual([]);
		const inLoop = nodeClass(`
		if (this.continueOnFail()) {}
		const items = this.getInputData();
		for (const item of items) { throw new NodeApiError(this.getNode(), {}); }`);
		expect(rulesOf(checkSource('A.node.ts', inLoop))).toEqual(['node-operation-error-itemindex']);
		expect(checkSource('helpers.ts', inLoop)).toEqual([]);
	});

	it('the stricter form: wherever an itemIndex is in scope, the error must carry it', () => {
		const withParameter = `function f(this: any, itemIndex: number) { throw new NodeOperationError(this.getNode(), 'x'); }`;
		const withLoopVariable = `async function r(this: any) {
			const items = this.getInputData();
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++) { throw new NodeApiError(this.getNode(), {}); }
		}`;
		const withDestructured = `const g = ({ itemIndex }: { itemIndex: number }) => new NodeOperationError(node, 'x');`;
		for (const code of [withParameter, withLoopVariable, withDestructured]) {
			expect(rulesOf(checkSource('x.ts', code, { itemIndexInScope: true }))).toEqual([
				'node-operation-error-itemindex',
			]);
			expect(checkSource('x.ts', code)).toEqual([]);
		}
		const carries = `function f(this: any, itemIndex: number) { throw new NodeOperationError(this.getNode(), 'x', { itemIndex }); }`;
		expect(checkSource('x.ts', carries, { itemIndexInScope: true })).toEqual([]);
		const noItem = `function request(this: any) { throw new NodeApiError(this.getNode(), {}); }`;
		expect(checkSource('x.ts', noItem, { itemIndexInScope: true })).toEqual([]);
	});
});

describe('this package', () => {
	it('passes both rules and the stricter itemIndex form in nodes/ and credentials/', () => {
		const { files, findings } = checkPackage(ROOT);
		expect(files).toContain('nodes/WorkforceManagement/WorkforceManagement.node.ts');
		expect(files.length).toBeGreaterThan(20);
		expect(findings).toEqual([]);
	});

	it("the action node's execute() itself decides continueOnFail and hands it to the router", () => {
		const file = 'nodes/WorkforceManagement/WorkforceManagement.node.ts';
		const code = readFileSync(join(ROOT, file), 'utf8');
		expect(code).toMatch(
			/const continueOnFail = this\.continueOnFail\(\);\s*return await router\.call\(this, \{ continueOnFail \}\);/,
		);
		// The same file without that call is what the master rule rejects.
		const without = code.replace('this.continueOnFail()', 'false');
		expect(rulesOf(checkSource(file, without))).toEqual(['require-continue-on-fail']);
	});
});
