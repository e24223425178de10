/** Attempts per request while the API answers 429, the first one included. */
export const RATE_LIMIT_MAX_ATTEMPTS = 5;

/** Upper bound of the time one request spends waiting for the rate limit to lift. */
export const RATE_LIMIT_MAX_TOTAL_WAIT_MS = 60_000;

const DEFAULT_RETRY_AFTER_MS = 1_000;

/** Milliseconds to wait as asked by a `Retry-After` header (seconds or an HTTP date). */
export function retryAfterMs(header: unknown, now = Date.now()): number {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return DEFAULT_RETRY_AFTER_MS;
	const seconds = Number(value);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
	const date = Date.parse(String(value));
	if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_MS;
	return Math.max(0, date - now);
}
