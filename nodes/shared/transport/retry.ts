import type { IHttpRequestMethods } from 'n8n-workflow';

import {
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	RATE_LIMIT_MIN_WAIT_MS,
	retryAfterMs,
} from './rateLimit';
import type { SendOutcome } from './send';
import { REQUEST_DEADLINE_MS } from './wire';

/**
 * How long after it is first sent a request other than a GET may still reach the API: attempts
 * refused with 429, each within its deadline, the waits between them, and the last attempt. (Only
 * a GET is sent again after getting no answer.) A server that applies a request after the node
 * gave up on it is beyond this bound.
 */
export const LONGEST_WRITE_MS =
	RATE_LIMIT_MAX_ATTEMPTS * REQUEST_DEADLINE_MS + RATE_LIMIT_MAX_TOTAL_WAIT_MS;

/** Attempts of a GET that gets no HTTP answer (reset, refused), the first one included. */
export const TRANSPORT_MAX_ATTEMPTS = 3;

/** The wait before the second attempt of such a GET; it doubles before each further one. */
const TRANSPORT_RETRY_FIRST_WAIT_MS = 500;

/** What the attempts of one request have cost so far, for the next decision and the error. */
export interface Attempts {
	sent: number;
	rateLimited: number;
	/** Time spent waiting for the rate limit to lift. */
	waitedMs: number;
	/** The delay the last 429 asked for. */
	askedMs: number;
}

export const NO_ATTEMPTS: Attempts = { sent: 0, rateLimited: 0, waitedMs: 0, askedMs: 0 };

/**
 * The retry policy: the attempts with this outcome counted, and the wait before sending again
 * (none: the outcome is final). A 429 waits as `Retry-After` asks (at least a second), within
 * bounded attempts and total wait. A GET that got no answer is sent again with back-off: it
 * changes nothing, while another method might have been applied already. A request that reached
 * its deadline is not sent again: another wait as long would follow.
 */
export function afterOutcome(
	method: IHttpRequestMethods,
	outcome: SendOutcome,
	before: Attempts,
): { attempts: Attempts; delayMs?: number } {
	const attempts = { ...before, sent: before.sent + 1 };
	if (outcome.kind === 'answered' && outcome.response.statusCode === 429) {
		attempts.rateLimited += 1;
		attempts.askedMs = retryAfterMs(outcome.response.headers['retry-after']);
		const delayMs = Math.max(RATE_LIMIT_MIN_WAIT_MS, attempts.askedMs);
		const mayWait =
			attempts.rateLimited < RATE_LIMIT_MAX_ATTEMPTS &&
			attempts.waitedMs + delayMs <= RATE_LIMIT_MAX_TOTAL_WAIT_MS;
		if (!mayWait) return { attempts };
		return { attempts: { ...attempts, waitedMs: attempts.waitedMs + delayMs }, delayMs };
	}
	if (outcome.kind === 'unanswered' && method === 'GET' && attempts.sent < TRANSPORT_MAX_ATTEMPTS) {
		return { attempts, delayMs: TRANSPORT_RETRY_FIRST_WAIT_MS * 2 ** (attempts.sent - 1) };
	}
	return { attempts };
}
