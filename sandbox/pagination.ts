import { validationError } from './errors';

export interface Sequenced {
	/** Global creation counter: orders records created in the same millisecond. */
	readonly seq: number;
}

export interface Page<T> {
	data: T[];
	has_more: boolean;
	next_cursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 25;

function encodeCursor(seq: number): string {
	return Buffer.from(`seq:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
	const match = /^seq:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
	if (!match) {
		throw validationError([
			{ field: 'cursor', message: 'is not a cursor returned by this list (use next_cursor as is)' },
		]);
	}
	return Number(match[1]);
}

/**
 * Records kept in creation order. Lists read newest first: a cursor holds the `seq` of the last
 * record of the previous page, found again by binary search, so a page costs O(log N + page)
 * when no filter is set.
 */
export class RecordList<T extends Sequenced> {
	private records: T[] = [];

	get size(): number {
		return this.records.length;
	}

	append(record: T): void {
		this.records.push(record);
	}

	remove(predicate: (record: T) => boolean): void {
		this.records = this.records.filter((record) => !predicate(record));
	}

	all(): T[] {
		return [...this.records];
	}

	/** Index of the first record with `seq` ≥ the given one. */
	private lowerBound(seq: number): number {
		let low = 0;
		let high = this.records.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.records[middle].seq < seq) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	page<R>(
		options: { limit?: number; cursor?: string; filter?: (record: T) => boolean },
		present: (record: T) => R,
	): Page<R> {
		const limit = options.limit ?? DEFAULT_PAGE_SIZE;
		let index =
			options.cursor === undefined
				? this.records.length - 1
				: this.lowerBound(decodeCursor(options.cursor)) - 1;
		const picked: T[] = [];
		let hasMore = false;
		for (; index >= 0; index--) {
			const record = this.records[index];
			if (options.filter && !options.filter(record)) continue;
			if (picked.length === limit) {
				hasMore = true;
				break;
			}
			picked.push(record);
		}
		return {
			data: picked.map(present),
			has_more: hasMore,
			next_cursor: hasMore ? encodeCursor(picked[picked.length - 1].seq) : null,
		};
	}
}
