/**
 * docs/operations.md says which operations have the Output choice and what each resource's
 * Simplified output holds; the operation registry decides it. The page's table is written from
 * the registry (scripts/operations-output.ts): this fails when the two differ, by a hand edit of
 * the page or a change of the registry the page was not written again for.
 */
import { readFileSync } from 'node:fs';

import { records as memberRecords } from '../../nodes/WorkforceManagement/actions/member/output';
import {
	OPERATIONS_DOC,
	documentedOutputTable,
	outputTable,
} from '../../scripts/operations-output';

const page = readFileSync(OPERATIONS_DOC, 'utf8');

describe("docs/operations.md's Output table", () => {
	it('is there, once, between its markers', () => {
		const table = documentedOutputTable(page);
		expect(table).toBeDefined();
		expect(page.split(table!)).toHaveLength(2);
	});

	it('lists every resource, its operations with and without the Output choice and its Simplified fields as the registry has them (npx tsx scripts/operations-output.ts --write)', () => {
		expect(documentedOutputTable(page)).toBe(outputTable());
	});

	it("counts a member's fields and its Simplified fields as the registry has them", () => {
		const counts = /A member's (\d+) fields .*? become (\d+)/.exec(page);
		expect(counts?.slice(1).map(Number)).toEqual([
			memberRecords.fields.length,
			memberRecords.simplified.length,
		]);
	});
});
