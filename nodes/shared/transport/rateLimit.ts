/** Attempts per request while the API answers 429, the first one included. */
export const RATE_LIMIT_MAX_ATTEMPTS = 5;

/** Upper bound of the time one request spends waiting for the rate limit to lift. */
export const RATE_LIMIT_MAX_TOTAL_WAIT_MS = 60_000;

/** The least the node waits before retrying a 429, whatever `Retry-After` says (even 0). */
export const RATE_LIMIT_MIN_WAIT_MS = 1_000;

const DEFAULT_RETRY_AFTER_MS = 1_000;

/** Milliseconds to wait as asked by a `Retry-After` header (seconds or an HTTP date). */
export function retryAfterMs(header: unknown, now = Date.now()): number {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return DEFAULT_RETRY_AFTER_MS;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) {
		return seconds >= 0 ? Math.ceil(seconds * 1000) : DEFAULT_RETRY_AFTER_MS;
	}
	const date = Date.parse(String(value));
	if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_MS;
	return Math.max(0, date - now);
}

/** What the node did about a rate limit before giving up, for the error to state. */
export interface RateLimitAttempts {
	attempts: number;
	waitedMs: number;
	/** The delay the last 429 asked for. */
	askedMs: number;
}

function seconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

function times(count: number): string {
	return count === 1 ? 'once' : `${count} times`;
}

/** "Sent GET /x 5 times and waited 4 s in all; the API last asked to wait 1 s." and the like. */
export function describeRateLimitAttempts(request: string, tried: RateLimitAttempts): string {
	const waited = `waited ${seconds(tried.waitedMs)}${tried.attempts > 1 ? ' in all' : ''}`;
	const sent = `Sent ${request} ${times(tried.attempts)} and ${waited}`;
	if (tried.attempts >= RATE_LIMIT_MAX_ATTEMPTS) {
		return `${sent}; the API last asked to wait ${seconds(tried.askedMs)}.`;
	}
	const budget = seconds(RATE_LIMIT_MAX_TOTAL_WAIT_MS);
	const limit =
		tried.waitedMs === 0
			? `longer than the ${budget} the node waits per request`
			: `more than is left of the ${budget} the node waits per request`;
	return `${sent}; the API asked to wait ${seconds(tried.askedMs)}, ${limit}.`;
}
