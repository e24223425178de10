/**
 * How the package reads in n8n's node creator. n8n 2.8.4's editor (useActionsGenerator,
 * generateMergedNodesAndActions) lists a trigger whose type name minus "Trigger" is another node
 * of the package as one entry with that node, and gives the entry the trigger's description. The
 * picker's search (sublimeSearch over `properties.displayName` and `properties.codex.alias`) reads
 * that entry, i.e. the action node's display name and codex aliases: the trigger's own aliases are
 * never searched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { WorkforceManagement } from '../../nodes/WorkforceManagement/WorkforceManagement.node';
import { WorkforceManagementTrigger } from '../../nodes/WorkforceManagementTrigger/WorkforceManagementTrigger.node';
import { PACKAGE_ROOT } from '../../harness/constants';
import { SPEC_EVENT_TYPES } from '../support/spec-event-types';

const action = new WorkforceManagement().description;
const trigger = new WorkforceManagementTrigger().description;
const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
	name: string;
	description: string;
};

interface Codex {
	node: string;
	categories: string[];
	alias: string[];
	resources: object;
}

function codex(folder: string): Codex {
	return JSON.parse(
		readFileSync(join(PACKAGE_ROOT, 'nodes', folder, `${folder}.node.json`), 'utf8'),
	) as Codex;
}

/** The family of an event type as people say it: `travel_expense.submitted` → "travel expense". */
function eventFamily(type: string): string {
	return type.split('.')[0].replace('customer_location', 'site').replace(/_/g, ' ');
}

describe('the node creator entry', () => {
	it('merges the trigger into the action node, as n8n does by type name', () => {
		expect(trigger.name.replace('Trigger', '')).toBe(action.name);
		expect(trigger.group).toContain('trigger');
		expect(action.group).not.toContain('trigger');
	});

	it('describes both nodes with the description n8n takes from the trigger', () => {
		const entry = trigger.description;
		for (const resource of ['members', 'customers', 'sites', 'webhooks']) {
			expect(entry).toContain(resource);
			expect(action.description).toContain(resource);
		}
		expect(entry).toMatch(/start workflows when its events happen/);
		expect(entry).not.toMatch(/^Starts the workflow/);
	});

	// n8n matches a search when its letters appear in order in a searched text; a plural alias thus
	// also finds the singular. Asked here more strictly: the word itself is in an alias.
	it.each([...new Set(SPEC_EVENT_TYPES.map(eventFamily))])(
		'is found by the event family "%s", through the action node’s aliases',
		(family) => {
			const searched = [action.displayName, ...codex('WorkforceManagement').alias];
			expect(searched.some((text) => text.toLowerCase().includes(family))).toBe(true);
		},
	);

	it('keeps descriptions to one sentence without a closing period, as n8n’s own nodes', () => {
		for (const description of [action.description, trigger.description]) {
			expect(description).not.toMatch(/\.$/);
			expect(description.length).toBeLessThanOrEqual(120);
		}
	});
});

/** Every field of a description, the options of collections included. */
function allFields(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...allFields(
			(property.options ?? []).filter((option): option is INodeProperties => 'type' in option),
		),
	]);
}

describe('the action node’s fields', () => {
	// The editor clamps a typed number to minValue/maxValue without a word; the hint says the range.
	it('state the limits of every bounded number field in its hint', () => {
		const bounded = allFields(action.properties).filter(
			(field) => field.type === 'number' && field.typeOptions?.minValue !== undefined,
		);

		expect(bounded.map((field) => field.displayName)).toEqual(
			expect.arrayContaining(['Capacity', 'Limit']),
		);
		for (const field of bounded) {
			const { minValue, maxValue } = field.typeOptions!;
			expect(field.hint).toContain(`${maxValue === undefined ? 'at least ' : 'from '}${minValue}`);
			if (maxValue !== undefined) expect(field.hint).toContain(`to ${maxValue}`);
		}
	});
});

describe('codex files and package.json', () => {
	it('name each node by its package type and link documentation without a #fragment', () => {
		for (const [folder, description] of [
			['WorkforceManagement', action],
			['WorkforceManagementTrigger', trigger],
		] as const) {
			const entry = codex(folder);
			expect(entry.node).toBe(`${packageJson.name}.${description.name}`);
			expect(entry.categories.length).toBeGreaterThan(0);
			expect(JSON.stringify(entry.resources)).not.toContain('#');
		}
	});

	it('describe the package for npm with both nodes', () => {
		expect(packageJson.description).toMatch(/members, customers, sites, webhooks/);
		expect(packageJson.description).toMatch(/trigger/);
	});
});
