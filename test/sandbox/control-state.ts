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

interface FaultBase {
	remaining: number;
	/** Only API paths under this prefix (`/members` or `/api/v1/members`); null for every path. */
	path: string | null;
}

/** The next API requests answer this status, before authentication. */
export interface StatusFault extends FaultBase {
	kind: 'status';
	status: 429 | 500 | 503;
	retry_after: number;
}

/** The next list pages asked with a cursor answer that same cursor as `next_cursor`. */
export interface RepeatCursorFault extends FaultBase {
	kind: 'repeat_cursor';
}

export type Fault = StatusFault | RepeatCursorFault;

export const API_PREFIX = '/api/v1';

function isUnder(prefix: string | null, path: string): boolean {
	if (prefix === null) return true;
	const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
	return path.startsWith(prefix) || relative.startsWith(prefix);
}

/** Faults queued for the next API requests (optionally only those under a path). */
export class FaultQueue {
	private faults: Fault[] = [];

	add(fault: Fault): void {
		this.faults.push(fault);
	}

	/** Takes one use of the first fault of this kind matching the path. */
	take<K extends Fault['kind']>(kind: K, path: string): Extract<Fault, { kind: K }> | undefined {
		const fault = this.faults.find(
			(candidate): candidate is Extract<Fault, { kind: K }> =>
				candidate.kind === kind && isUnder(candidate.path, path),
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
