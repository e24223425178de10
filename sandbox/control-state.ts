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

/** How a `broken_page` fault breaks a list page (see sandbox/README.md). */
export const BROKEN_PAGE_VARIANTS = [
	'no_cursor',
	'empty_cursor',
	'missing_cursor',
	'empty_page',
	'over_limit',
	'not_json',
	'no_data',
	'no_has_more',
] as const;

/** The next list pages come back broken, each in the way `variant` names. */
export interface BrokenPageFault extends FaultBase {
	kind: 'broken_page';
	variant: (typeof BROKEN_PAGE_VARIANTS)[number];
}

/**
 * After letting `after` API requests through, the next ones lose their connection unanswered, or
 * with `hold`, keep it open unanswered (a server that accepts and never answers) until the client
 * gives up or `HELD_CONNECTION_MAX_MS` has passed.
 */
export interface ResetFault extends FaultBase {
	kind: 'reset';
	after: number;
	hold: boolean;
}

/** A held connection is closed after this long even if the client waits on. */
export const HELD_CONNECTION_MAX_MS = 10 * 60_000;

/**
 * The next API requests answer 200 and their headers at once, then the body a space a second and
 * `{}` after `seconds`: a server or proxy that trickles its answer.
 */
export interface SlowBodyFault extends FaultBase {
	kind: 'slow_body';
	seconds: number;
}

/**
 * The next API requests are handled as usual (a write is done), and their answer is sent
 * `seconds` later: a server that commits, then answers slowly. With `hold`, the answer waits
 * instead until the control interface releases it (`HeldAnswers`), for a test that needs it sent
 * after a state, not after a time.
 */
export interface LateAnswerFault extends FaultBase {
	kind: 'late_answer';
	seconds: number;
	hold: boolean;
}

/** Answers a `late_answer` fault with `hold` keeps back until released (or HELD_CONNECTION_MAX_MS). */
export class HeldAnswers {
	private readonly waiting = new Set<() => void>();

	/** Resolves when released, or after HELD_CONNECTION_MAX_MS at the latest. */
	async wait(): Promise<void> {
		await new Promise<void>((release) => {
			const timer = setTimeout(() => done(), HELD_CONNECTION_MAX_MS);
			timer.unref();
			const done = () => {
				clearTimeout(timer);
				this.waiting.delete(done);
				release();
			};
			this.waiting.add(done);
		});
	}

	/** Sends every held answer; answers how many there were. */
	release(): number {
		const held = [...this.waiting];
		for (const done of held) done();
		return held.length;
	}
}

export type Fault =
	| StatusFault
	| RepeatCursorFault
	| BrokenPageFault
	| ResetFault
	| SlowBodyFault
	| LateAnswerFault;

/**
 * A fault as `POST /__sandbox/faults` takes it (see sandbox/README.md): `kind` may be left
 * out for a status fault, and the control interface fills in what else is left out.
 */
export type FaultRequest = { count: number; path?: string } & (
	| { kind?: 'status'; status: 429 | 500 | 503; retry_after?: number }
	| { kind: 'repeat_cursor' }
	| { kind: 'broken_page'; variant: (typeof BROKEN_PAGE_VARIANTS)[number] }
	| { kind: 'reset'; after?: number; hold?: boolean }
	| { kind: 'slow_body'; seconds?: number }
	| { kind: 'late_answer'; seconds?: number; hold?: boolean }
);

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
		const resetFault = fault as Fault;
		if (resetFault.kind === 'reset' && resetFault.after > 0) {
			resetFault.after -= 1;
			return undefined;
		}
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
