import type { ICredentialsDecrypted, IDataObject } from 'n8n-workflow';

import { unexpectedAnswerError } from './apiError';
import { decryptCredentials } from './credential';
import type { WorkforceApiContext } from './credential';
import { workforceApiRequest } from './request';

export const MAX_PAGE_SIZE = 100;

/** Empty pages in a row, each promising more, after which a walk of a list stops. */
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

/** Why a walk of a list ended before the list did. */
export type PageWalkStop =
	/** A page promised more without a usable cursor. */
	| 'no_cursor'
	/** A cursor was handed out twice: following it would read the same pages forever. */
	| 'repeated_cursor'
	/** {@link MAX_EMPTY_PAGES_IN_A_ROW} empty pages in a row, each promising more. */
	| 'empty_pages'
	/** The walk's budget had no page left. */
	| 'page_limit'
	/** The walk's budget had no time left. */
	| 'deadline';

export interface PageWalkEnd {
	reason: PageWalkStop;
	/** The `next_cursor` of the last page read, as the API gave it (null when it gave none). */
	nextCursor: string | null;
}

/**
 * The pages and the time that the walks given one budget may spend together: each page request
 * takes a page, and none is sent once `Date.now()` reaches the deadline. A request under way then
 * runs to its own end (REQUEST_DEADLINE_MS, and the rate limit's waits), so a walk may overrun the
 * deadline by that one request.
 */
export class PageBudget {
	private constructor(
		private pagesLeft: number,
		private readonly deadlineMs: number,
		private readonly drawsOn?: PageBudget,
	) {}

	static of(pages: number, milliseconds: number): PageBudget {
		return new PageBudget(pages, Date.now() + milliseconds);
	}

	/**
	 * Half of the pages and of the time left now, spent from this budget: a first walk given it
	 * leaves at least as much to a second walk of the same list.
	 */
	half(): PageBudget {
		const nowMs = Date.now();
		const halfTimeMs = Math.max(0, this.deadlineMs - nowMs) / 2;
		return new PageBudget(Math.floor(this.pagesLeft / 2), nowMs + halfTimeMs, this);
	}

	/** Why no further page may be asked for, if none may. */
	refusal(): 'page_limit' | 'deadline' | undefined {
		const ofWhole = this.drawsOn?.refusal();
		if (ofWhole !== undefined) return ofWhole;
		if (this.pagesLeft <= 0) return 'page_limit';
		return Date.now() >= this.deadlineMs ? 'deadline' : undefined;
	}

	spendPage(): void {
		this.pagesLeft--;
		this.drawsOn?.spendPage();
	}
}

export interface PageWalkOptions {
	qs?: IDataObject;
	operationScope?: string;
	/** How many records to ask the next page for (at most 100); 100 when left out. */
	pageSize?: () => number;
	/** Without one, the walk asks for pages until the list ends or a stop above. */
	budget?: PageBudget;
}

/** The pages of one walk of a list, in order; `stop` says why it ended short, once it has. */
export interface PageWalk extends AsyncIterable<WorkforceListPage> {
	/** Undefined while the walk runs, when the list ended, and when its reader left it. */
	readonly stop: PageWalkEnd | undefined;
}

/** Why the page after `page` must not be asked for, if it must not. */
function stopAfter(
	page: WorkforceListPage,
	seenCursors: Set<string>,
	emptyPagesInARow: number,
): PageWalkStop | undefined {
	const nextCursor = page.next_cursor;
	if (typeof nextCursor !== 'string' || nextCursor === '') return 'no_cursor';
	if (seenCursors.has(nextCursor)) return 'repeated_cursor';
	if (emptyPagesInARow >= MAX_EMPTY_PAGES_IN_A_ROW) return 'empty_pages';
	return undefined;
}

async function* pagesOf(
	context: WorkforceApiContext,
	path: string,
	options: PageWalkOptions,
	walk: { stop?: PageWalkEnd },
): AsyncGenerator<WorkforceListPage> {
	const credentials = await decryptCredentials.call(context);
	const seenCursors = new Set<string>();
	let emptyPagesInARow = 0;
	let recordsRead = 0;
	let cursor: string | undefined;
	for (;;) {
		const refusal = options.budget?.refusal();
		if (refusal !== undefined) {
			walk.stop = { reason: refusal, nextCursor: cursor ?? null };
			return;
		}
		options.budget?.spendPage();
		const pageSize = options.pageSize?.() ?? MAX_PAGE_SIZE;
		const qs = { ...options.qs, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) };
		const page = await readPage.call(
			context,
			path,
			qs,
			options.operationScope,
			credentials,
			recordsRead,
		);
		recordsRead += Math.min(page.data.length, pageSize);
		yield page;
		if (!page.has_more) return;

		emptyPagesInARow = page.data.length === 0 ? emptyPagesInARow + 1 : 0;
		const stop = stopAfter(page, seenCursors, emptyPagesInARow);
		if (stop !== undefined) {
			walk.stop = { reason: stop, nextCursor: page.next_cursor ?? null };
			return;
		}
		cursor = page.next_cursor as string;
		seenCursors.add(cursor);
	}
}

/**
 * Walks a list endpoint page by page, following `next_cursor`, the one way every listing reads
 * more than one page. It stops before a page it cannot end well with (see {@link PageWalkStop})
 * and says why in `stop`; whether that is an error is the reader's call.
 */
export function walkPages(
	this: WorkforceApiContext,
	path: string,
	options: PageWalkOptions = {},
): PageWalk {
	const walk: { stop?: PageWalkEnd } = {};
	const pages = pagesOf(this, path, options, walk);
	return {
		get stop() {
			return walk.stop;
		},
		[Symbol.asyncIterator]: () => pages,
	};
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
