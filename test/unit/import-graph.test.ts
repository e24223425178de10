import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { importCycles, importGraph } from '../support/import-graph';
import { PACKAGE_ROOT } from '../support/constants';

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
