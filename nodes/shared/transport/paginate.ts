import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { decryptCredentials, workforceApiRequest } from './request';
import type { WorkforceApiContext } from './request';

export const MAX_PAGE_SIZE = 100;

export interface WorkforceListPage {
	data: IDataObject[];
	has_more: boolean;
	next_cursor: string | null;
}

/**
 * Reads a list endpoint page by page, asking each page for no more records than are still
 * wanted, so N records cost ceil(N / 100) requests. `limit` undefined returns all records.
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
	let cursor: string | undefined;
	const credentials = await decryptCredentials.call(this);

	while (limit === undefined || records.length < limit) {
		const pageSize = Math.min(
			MAX_PAGE_SIZE,
			limit === undefined ? MAX_PAGE_SIZE : limit - records.length,
		);
		const page = (await workforceApiRequest.call(this, 'GET', path, {
			qs: { ...qs, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) },
			operationScope,
			credentials,
		})) as WorkforceListPage;
		records.push(...page.data.slice(0, pageSize));

		const nextCursor = page.next_cursor;
		if (page.has_more === false || typeof nextCursor !== 'string' || nextCursor === '') break;
		if (seenCursors.has(nextCursor)) {
			throw new NodeApiError(
				this.getNode(),
				{ next_cursor: nextCursor },
				{
					message: `The API returned the same page cursor twice while listing ${path}`,
					description: `Stopped after ${records.length} records to avoid reading the same page forever. Retry later; if it persists, contact the provider.`,
				},
			);
		}
		seenCursors.add(nextCursor);
		cursor = nextCursor;
	}

	return records;
}

/** One full page of a list endpoint, from `cursor` on (the first page without one). */
export async function workforceApiListPage(
	this: WorkforceApiContext,
	path: string,
	cursor: string | undefined,
	operationScope: string,
): Promise<WorkforceListPage> {
	return (await workforceApiRequest.call(this, 'GET', path, {
		qs: { limit: MAX_PAGE_SIZE, ...(cursor ? { cursor } : {}) },
		operationScope,
	})) as WorkforceListPage;
}
