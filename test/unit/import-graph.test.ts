import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { importCycles, importGraph } from '../support/import-graph';
import { PACKAGE_ROOT } from '../../harness/constants';

describe('the import graph of nodes/ and credentials/', () => {
	it('has no cycle, type imports included', () => {
		const graph = importGraph([join(PACKAGE_ROOT, 'nodes'), join(PACKAGE_ROOT, 'credentials')]);
		const trigger = join(
			PACKAGE_ROOT,
			'nodes/WorkforceManagementTrigger/WorkforceManagementTrigger.node.ts',
		);
		// the graph is read: the trigger reaches nodes/shared/
		expect(graph.get(trigger)?.some((file) => file.includes('/nodes/shared/'))).toBe(true);
		expect(importCycles(graph)).toEqual([]);
	});

	it("keeps the trigger's layers: only the node file imports its pipelines, and its folders import one way", () => {
		const trigger = join(PACKAGE_ROOT, 'nodes/WorkforceManagementTrigger');
		const graph = importGraph([trigger]);
		const nodeFile = join(trigger, 'WorkforceManagementTrigger.node.ts');
		const pipelines = ['delivery.ts', 'lifecycle.ts'].map((name) => join(trigger, name));
		const importersOfPipelines = [...graph]
			.filter(([, targets]) => targets.some((target) => pipelines.includes(target)))
			.map(([file]) => file);
		expect(importersOfPipelines).toEqual([nodeFile]);

		// folder → the other folders it imports from; the files beside the folders are left out
		const folderOf = (file: string) => relative(trigger, dirname(file));
		const folders = new Map<string, string[]>();
		for (const [file, targets] of graph) {
			const from = folderOf(file);
			if (from === '') continue;
			const to = targets.map(folderOf).filter((folder) => folder !== '' && folder !== from);
			folders.set(from, [...new Set([...(folders.get(from) ?? []), ...to])]);
		}
		expect([...folders.keys()].sort()).toEqual([
			'duplicates',
			'recovery',
			'registration',
			'verification',
		]);
		expect(importCycles(folders)).toEqual([]);
	});

	it('finds a cycle closed by a type import and by a re-export', () => {
		const folder = mkdtempSync(join(tmpdir(), 'import-graph-'));
		try {
			writeFileSync(join(folder, 'index.ts'), "export * from './fields';\n");
			writeFileSync(
				join(folder, 'fields.ts'),
				"import type { Name } from './registry';\nexport const f = (name: Name) => name;\n",
			);
			writeFileSync(
				join(folder, 'registry.ts'),
				"import { f } from './index';\nexport type Name = 'a';\nexport const r = f('a');\n",
			);
			writeFileSync(join(folder, 'alone.ts'), "import { r } from './registry';\nexport { r };\n");
			const cycles = importCycles(importGraph([folder]));
			expect(cycles).toEqual([
				['fields.ts', 'index.ts', 'registry.ts'].map((name) => join(folder, name)),
			]);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
