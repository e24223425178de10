import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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

	it("keeps the trigger's layers: only the node file imports its pipelines, every import runs down, six floors at most", () => {
		const trigger = join(PACKAGE_ROOT, 'nodes/WorkforceManagementTrigger');
		const graph = importGraph([trigger]);
		const nodeFile = join(trigger, 'WorkforceManagementTrigger.node.ts');
		const pipelines = ['delivery.ts', 'lifecycle.ts'].map((name) => join(trigger, name));
		const importersOfPipelines = [...graph]
			.filter(([, targets]) => targets.some((target) => pipelines.includes(target)))
			.map(([file]) => file);
		expect(importersOfPipelines).toEqual([nodeFile]);

		// a room is a file beside the node file or a folder, as `farm-studio look` draws them
		const roomOf = (file: string) => relative(trigger, file).split('/')[0];
		const rooms = new Map<string, string[]>();
		for (const [file, targets] of graph) {
			const from = roomOf(file);
			const to = targets.filter((target) => target.startsWith(trigger)).map(roomOf);
			rooms.set(
				from,
				[...new Set([...(rooms.get(from) ?? []), ...to])].filter((room) => room !== from),
			);
		}
		expect([...rooms.keys()].filter((room) => !room.endsWith('.ts')).sort()).toEqual([
			'duplicates',
			'recovery',
			'registration',
			'secrets',
			'verification',
		]);
		// no import runs back up, and the longest chain of imports is at most six rooms
		expect(importCycles(rooms)).toEqual([]);
		const floor = (room: string): number =>
			1 + Math.max(0, ...(rooms.get(room) ?? []).map((below) => floor(below)));
		expect(floor('WorkforceManagementTrigger.node.ts')).toBeLessThanOrEqual(6);
		expect(Math.max(...[...rooms.keys()].map(floor))).toBe(
			floor('WorkforceManagementTrigger.node.ts'),
		);
	});

	it('reaches the webhooks ledger only through its door', () => {
		const ledger = join(PACKAGE_ROOT, 'nodes/shared/webhooks');
		const graph = importGraph([join(PACKAGE_ROOT, 'nodes')]);
		const pastTheDoor = [...graph].flatMap(([file, targets]) =>
			file.startsWith(ledger)
				? []
				: targets
						.filter(
							(target) => target.startsWith(`${ledger}/`) && target !== join(ledger, 'index.ts'),
						)
						.map((target) => `${relative(PACKAGE_ROOT, file)} → ${relative(PACKAGE_ROOT, target)}`),
		);
		// the graph is read: both nodes reach the ledger
		const users = [...graph].filter(([, targets]) => targets.includes(join(ledger, 'index.ts')));
		expect(users.some(([file]) => file.includes('/WorkforceManagementTrigger/'))).toBe(true);
		expect(users.some(([file]) => file.includes('/WorkforceManagement/actions/'))).toBe(true);
		expect(pastTheDoor).toEqual([]);
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
