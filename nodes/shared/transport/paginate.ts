import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { WorkforceApiContext } from './credential';
import { MAX_EMPTY_PAGES_IN_A_ROW, MAX_PAGE_SIZE, walkPages } from './pages';
import type { PageWalkEnd, PageWalkStop } from './pages';

const AT_THE_LIMIT = 'at the limit set for the listing';

const PAGING_ERRORS: Record<PageWalkStop, [message: string, why: string]> = {
	no_cursor: [
		'The API said more records follow but gave no cursor to read them',
		'because the rest cannot be asked for',
	],
	repeated_cursor: [
		'The API returned the same page cursor twice',
		'to avoid reading the same page forever',
	],
	empty_pages: [
		`The API returned ${MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row`,
		'rather than follow empty pages without end',
	],
	page_limit: ['The listing reached the most pages it may read', AT_THE_LIMIT],
	deadline: ['The listing ran out of the time it may take', AT_THE_LIMIT],
};

function pagingError(
	context: WorkforceApiContext,
	path: string,
	end: PageWalkEnd,
	recordsRead: number,
): NodeApiError {
	const details: JsonObject =
		end.reason === 'no_cursor'
			? { has_more: true, next_cursor: end.nextCursor }
			: { next_cursor: end.nextCursor };
	const [message, why] = PAGING_ERRORS[end.reason];
	return new NodeApiError(context.getNode(), details, {
		message: `${message} while listing ${path}`,
		description: `Stopped after ${recordsRead} records ${why}. Retry later; if it persists, contact the provider.`,
	});
}

/**
 * Reads a list endpoint page by page, asking each page for no more records than are still
 * wanted, so N records cost ceil(N / 100) requests. `limit` undefined returns all records.
 * A walk that cannot end well ends in an error rather than a silently short or endless list.
 */
export async function workforceApiPaginate(
	this: WorkforceApiContext,
	path: string,
	qs: IDataObject = {},
	limit?: number,
	operationScope?: string,
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const stillWanted = () =>
		Math.min(MAX_PAGE_SIZE, limit === undefined ? MAX_PAGE_SIZE : limit - records.length);
	const walk = walkPages.call(this, path, { qs, operationScope, pageSize: stillWanted });
	for await (const page of walk) {
		records.push(...page.data.slice(0, stillWanted()));
		if (limit !== undefined && records.length >= limit) break;
	}
	if (walk.stop !== undefined) throw pagingError(this, path, walk.stop, records.length);
	return records;
}
