/**
 * docs/operations.md's table of the action node's Output choice (which operations of each resource
 * have it, which do not, and each resource's Simplified fields), written from the operation
 * registry so that the page cannot drift from the node.
 *   npx tsx scripts/operations-output.ts           prints the table
 *   npx tsx scripts/operations-output.ts --write   writes it into docs/operations.md
 * test/unit/operations-doc.test.ts fails when the page's table differs from this one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { resources } from '../nodes/WorkforceManagement/actions/resources';
import type {
	WorkforceOperation,
	WorkforceResource,
} from '../nodes/WorkforceManagement/actions/types';

export const OPERATIONS_DOC = join(__dirname, '..', 'docs', 'operations.md');

const START =
	'<!-- Written by `npx tsx scripts/operations-output.ts --write` from the operation registry; do not edit by hand. -->';
const END = '<!-- End of the written table. -->';

/** Operation names in the order of the Operation dropdown (by name), or a dash for none. */
function nameList(operations: WorkforceOperation[]): string {
	const names = operations.map((operation) => operation.option.name);
	return names.length > 0 ? names.sort((a, b) => a.localeCompare(b)).join(', ') : '–';
}

function row(resource: WorkforceResource): string {
	const operations: WorkforceOperation[] = [...resource.operations];
	const withOutput = operations.filter((operation) => operation.records !== undefined);
	const without = operations.filter((operation) => operation.records === undefined);
	const simplified = [...new Set(withOutput.map((operation) => operation.records!))]
		.map((records) => records.simplified.map((field) => `\`${field}\``).join(', '))
		.join('; ');
	return `| ${resource.displayName} | ${nameList(withOutput)} | ${nameList(without)} | ${simplified || '–'} |`;
}

/** The table, between the markers that delimit it on the page, resources in the dropdown's order. */
export function outputTable(): string {
	const registry: WorkforceResource[] = Object.values(resources);
	return [
		START,
		'',
		'| Resource | Output choice | no Output choice | Simplified fields, in order |',
		'|---|---|---|---|',
		...registry.map(row),
		'',
		END,
	].join('\n');
}

/** The table as the page has it, markers included; undefined when the page lacks them. */
export function documentedOutputTable(page: string): string | undefined {
	const start = page.indexOf(START);
	const end = page.indexOf(END, start);
	if (start === -1 || end === -1) return undefined;
	return page.slice(start, end + END.length);
}

if (require.main === module) {
	const page = readFileSync(OPERATIONS_DOC, 'utf8');
	const documented = documentedOutputTable(page);
	if (!process.argv.includes('--write')) {
		process.stdout.write(`${outputTable()}\n`);
	} else if (documented === undefined) {
		throw new Error(`${OPERATIONS_DOC} has no table between "${START}" and "${END}"`);
	} else {
		writeFileSync(OPERATIONS_DOC, page.replace(documented, outputTable()));
	}
}
