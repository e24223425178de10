import type { ICredentialsDecrypted, IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { unexpectedAnswerError } from './apiError';
import { decryptCredentials, workforceApiRequest } from './request';
import type { WorkforceApiContext } from './request';

export const MAX_PAGE_SIZE = 100;

/** Empty pages in a row, each promising more, after which a listing stops with an error. */
export const MAX_EMPTY_PAGES_IN_A_ROW = 10;

export interface WorkforceListPage {
	data: IDataObject[];
	has_more: boolean;
	next_cursor: string | null;
}

/** One page of `path`, checked to have the documented shape. */
async function readPage(
	this: WorkforceApiContext,
	path: string,
	qs: IDataObject,
	operationScope: string | undefined,
	credentials: ICredentialsDecrypted | undefined,
	recordsRead: number | undefined,
): Promise<WorkforceListPage> {
	const page = (await workforceApiRequest.call(this, 'GET', path, {
		qs,
		operationScope,
		credentials,
	})) as Partial<WorkforceListPage>;
	const missing = !Array.isArray(page.data)
		? 'its "data" list'
		: typeof page.has_more !== 'boolean'
			? 'its "has_more" flag'
			: undefined;
	if (missing) {
		throw unexpectedAnswerError(
			this.getNode(),
			`GET ${path}`,
			`a page without ${missing}`,
			recordsRead,
		);
	}
	return page as WorkforceListPage;
}

function pagingError(
	context: WorkforceApiContext,
	details: JsonObject,
	message: string,
	recordsRead: number,
	why: string,
): NodeApiError {
	return new NodeApiError(context.getNode(), details, {
		message,
		description: `Stopped after ${recordsRead} records ${why}. Retry later; if it persists, contact the provider.`,
	});
}

/**
 * The cursor of the page after `page`, or an error when following it cannot end well: a page that
 * promises more without a usable cursor, a cursor handed out twice, a long run of empty pages.
 */
function nextCursorOf(
	context: WorkforceApiContext,
	path: string,
	page: WorkforceListPage,
	walk: { seenCursors: Set<string>; emptyPagesInARow: number },
	recordsRead: number,
): string {
	const nextCursor = page.next_cursor;
	if (typeof nextCursor !== 'string' || nextCursor === '') {
		throw pagingError(
			context,
			{ has_more: true, next_cursor: nextCursor ?? null },
			`The API said more records follow but gave no cursor to read them while listing ${path}`,
			recordsRead,
			'because the rest cannot be asked for',
		);
	}
	if (walk.seenCursors.has(nextCursor)) {
		throw pagingError(
			context,
			{ next_cursor: nextCursor },
			`The API returned the same page cursor twice while listing ${path}`,
			recordsRead,
			'to avoid reading the same page forever',
		);
	}
	if (walk.emptyPagesInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
		throw pagingError(
			context,
			{ next_cursor: nextCursor },
			`The API returned ${walk.emptyPagesInARow} empty pages in a row while listing ${path}`,
			recordsRead,
			'rather than follow empty pages without end',
		);
	}
	return nextCursor;
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
	const seenCursors = new Set<string>();
	let emptyPagesInARow = 0;
	let cursor: string | undefined;
	const credentials = await decryptCredentials.call(this);

	for (;;) {
		const pageSize = Math.min(
			MAX_PAGE_SIZE,
			limit === undefined ? MAX_PAGE_SIZE : limit - records.length,
		);
		const page = await readPage.call(
			this,
			path,
			{ ...qs, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) },
			operationScope,
			credentials,
			records.length,
		);
		for (const record of page.data.slice(0, pageSize)) records.push(record);
		if (!page.has_more || (limit !== undefined && records.length >= limit)) break;

		emptyPagesInARow = page.data.length === 0 ? emptyPagesInARow + 1 : 0;
		cursor = nextCursorOf(this, path, page, { seenCursors, emptyPagesInARow }, records.length);
		seenCursors.add(cursor);
	}

	return records;
}

/** One full page of a list endpoint, from `cursor` on (the first page without one), filtered by `filters`. */
export async function workforceApiListPage(
	this: WorkforceApiContext,
	path: string,
	cursor: string | undefined,
	operationScope: string,
	filters: IDataObject = {},
): Promise<WorkforceListPage> {
	const qs = { ...filters, limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) };
	return await readPage.call(this, path, qs, operationScope, undefined, undefined);
}
