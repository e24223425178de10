import type { IncomingHttpHeaders } from 'node:http';

export interface LoggedRequest {
	method: string;
	/** Full path without the query string, e.g. `/api/v1/members`. */
	path: string;
	query: Record<string, unknown>;
	/** The parsed JSON body, or null when none was sent. */
	body: unknown;
	headers: IncomingHttpHeaders;
	at: string;
}

export interface Fault {
	status: 429 | 500 | 503;
	remaining: number;
	retry_after: number;
	path: string | null;
}

export const API_PREFIX = '/api/v1';

/** Queued status answers for the next API requests (optionally only those under a path). */
export class FaultQueue {
	private faults: Fault[] = [];

	add(fault: Fault): void {
		this.faults.push(fault);
	}

	/** Takes one use of the first fault matching the path (`/members` or `/api/v1/members`). */
	take(path: string): Fault | undefined {
		const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
		const fault = this.faults.find(
			(candidate) =>
				candidate.path === null ||
				path.startsWith(candidate.path) ||
				relative.startsWith(candidate.path),
		);
		if (!fault) return undefined;
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
		return fault;
	}

	pending(): Fault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	clear(): void {
		this.faults = [];
	}
}
