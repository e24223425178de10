import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

import { operationSubtitle, resources } from '../../nodes/WorkforceManagement/actions/resources';
import { resourceDescription } from '../../nodes/WorkforceManagement/actions/resourceDescription';
import type { WorkforceOperation } from '../../nodes/WorkforceManagement/actions/types';
import { PACKAGE_ROOT } from '../../harness/constants';

const ACTIONS = join(PACKAGE_ROOT, 'nodes', 'WorkforceManagement', 'actions');

const registered = Object.entries(resources).flatMap(([resource, { operations }]) =>
	operations.map((operation) => `${resource}.${operation.option.value}`),
);

/** The files of a resource's folder that are operation modules (they export an execute()). */
async function operationFilesIn(
	resource: string,
): Promise<Array<{ file: string; module: object }>> {
	const files = readdirSync(join(ACTIONS, resource)).filter(
		(file) => file.endsWith('.ts') && file !== 'index.ts',
	);
	const modules = await Promise.all(
		files.map(async (file) => ({
			file,
			module: (await import(join(ACTIONS, resource, file))) as Partial<WorkforceOperation>,
		})),
	);
	return modules.filter(({ module }) => typeof module.execute === 'function');
}

describe('the operation registry', () => {
	it.each(Object.entries(resources))(
		"offers %s's operations in an Operation dropdown shown for that resource only",
		(name, resource) => {
			const selector = resourceDescription(name, resource).find(
				(property) => property.name === 'operation',
			);
			expect(selector?.displayOptions).toEqual({ show: { resource: [name] } });
			const options = selector?.options as INodePropertyOptions[];
			const values = options.map((option) => option.value);
			expect([...values].sort()).toEqual(
				resource.operations.map((operation) => operation.option.value).sort(),
			);
			expect(new Set(values).size).toBe(values.length);
			expect(values).toContain(resource.defaultOperation);
			const names = options.map((option) => option.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		},
	);

	it.each(Object.entries(resources))(
		'registers every operation module in actions/%s/, each once',
		async (name, resource) => {
			const files = await operationFilesIn(name);
			const registry: readonly object[] = resource.operations;
			const unregistered = files.filter(({ module }) => !registry.includes(module));
			expect(unregistered.map(({ file }) => file)).toEqual([]);
			expect(registry).toHaveLength(files.length);
		},
	);

	it.each(Object.entries(resources))(
		"shows %s's Output choice for exactly the operations that return its records",
		(name, resource) => {
			const outputChoices = resourceDescription(name, resource).filter(
				(property) => property.name === 'output',
			);
			const operations: readonly WorkforceOperation[] = resource.operations;
			const returningRecords = operations
				.filter((operation) => operation.records !== undefined)
				.map((operation) => operation.option.value);
			for (const choice of outputChoices) {
				expect([...(choice.displayOptions?.show?.operation ?? [])].sort()).toEqual(
					returningRecords.sort(),
				);
			}
			expect(outputChoices).toHaveLength(returningRecords.length > 0 ? 2 : 0);
		},
	);
});

describe('the action node subtitle', () => {
	const subtitle = operationSubtitle();
	const actions = JSON.parse(/^=\{\{ (\{.*\})\[/.exec(subtitle)![1]) as Record<string, string>;

	it('names the action of every registered operation, keyed by resource and operation', () => {
		expect(registered.length).toBeGreaterThan(Object.keys(resources).length);
		expect(Object.keys(actions).sort()).toEqual([...registered].sort());
		expect(actions['member.get']).toBe('Get a member');
		expect(actions['webhookEndpoint.rollSecret']).toMatch(/^Roll /);
	});

	it('looks the action up from the picked resource and operation', () => {
		expect(subtitle.endsWith('[$parameter["resource"] + "." + $parameter["operation"]] }}')).toBe(
			true,
		);
	});
});
