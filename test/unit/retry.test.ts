import type { IN8nHttpFullResponse } from 'n8n-workflow';

import {
	afterOutcome,
	NO_ATTEMPTS,
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	TRANSPORT_MAX_ATTEMPTS,
} from '../../nodes/shared/transport';
import type { Attempts, SendOutcome } from '../../nodes/shared/transport';

function answered(statusCode: number, headers: Record<string, string> = {}): SendOutcome {
	return {
		kind: 'answered',
		response: { statusCode, headers, body: {} } as IN8nHttpFullResponse,
	};
}

const rateLimited = (retryAfter: string) => answered(429, { 'retry-after': retryAfter });
const unanswered: SendOutcome = { kind: 'unanswered', cause: 'socket hang up' };

describe('afterOutcome: the retry policy of one request', () => {
	it('a 429 waits as Retry-After asks, and counts the attempt and the wait', () => {
		expect(afterOutcome('GET', rateLimited('2'), NO_ATTEMPTS)).toEqual({
			attempts: { sent: 1, rateLimited: 1, waitedMs: 2_000, askedMs: 2_000 },
			delayMs: 2_000,
		});
	});

	it('a 429 asking for no wait still waits a second; the error reports what was asked', () => {
		expect(afterOutcome('POST', rateLimited('0'), NO_ATTEMPTS)).toEqual({
			attempts: { sent: 1, rateLimited: 1, waitedMs: 1_000, askedMs: 0 },
			delayMs: 1_000,
		});
	});

	it('adds each wait to those before', () => {
		const before: Attempts = { sent: 2, rateLimited: 2, waitedMs: 3_000, askedMs: 1_000 };
		expect(afterOutcome('GET', rateLimited('5'), before)).toEqual({
			attempts: { sent: 3, rateLimited: 3, waitedMs: 8_000, askedMs: 5_000 },
			delayMs: 5_000,
		});
		expect(before).toEqual({ sent: 2, rateLimited: 2, waitedMs: 3_000, askedMs: 1_000 });
	});

	it(`sends a rate-limited request ${RATE_LIMIT_MAX_ATTEMPTS} times at most`, () => {
		const fourth = afterOutcome('GET', rateLimited('1'), {
			sent: 3,
			rateLimited: 3,
			waitedMs: 3_000,
			askedMs: 1_000,
		});
		expect(fourth.delayMs).toBe(1_000);

		expect(
			afterOutcome('GET', rateLimited('1'), {
				sent: 4,
				rateLimited: 4,
				waitedMs: 4_000,
				askedMs: 1_000,
			}),
		).toEqual({ attempts: { sent: 5, rateLimited: 5, waitedMs: 4_000, askedMs: 1_000 } });
	});

	it('waits up to the total allowed, exactly included, and not a millisecond more', () => {
		const before: Attempts = { sent: 1, rateLimited: 1, waitedMs: 10_000, askedMs: 10_000 };
		const upToTheBound = `${(RATE_LIMIT_MAX_TOTAL_WAIT_MS - 10_000) / 1000}`;
		expect(afterOutcome('GET', rateLimited(upToTheBound), before)).toEqual({
			attempts: {
				sent: 2,
				rateLimited: 2,
				waitedMs: RATE_LIMIT_MAX_TOTAL_WAIT_MS,
				askedMs: RATE_LIMIT_MAX_TOTAL_WAIT_MS - 10_000,
			},
			delayMs: RATE_LIMIT_MAX_TOTAL_WAIT_MS - 10_000,
		});

		const overTheBound = `${(RATE_LIMIT_MAX_TOTAL_WAIT_MS - 10_000 + 1) / 1000}`;
		expect(afterOutcome('GET', rateLimited(overTheBound), before)).toEqual({
			attempts: {
				sent: 2,
				rateLimited: 2,
				waitedMs: 10_000,
				askedMs: RATE_LIMIT_MAX_TOTAL_WAIT_MS - 10_000 + 1,
			},
		});
	});

	it(`sends a GET that got no answer again, ${TRANSPORT_MAX_ATTEMPTS} times in all, the wait doubling`, () => {
		const first = afterOutcome('GET', unanswered, NO_ATTEMPTS);
		expect(first).toEqual({ attempts: { ...NO_ATTEMPTS, sent: 1 }, delayMs: 500 });
		const second = afterOutcome('GET', unanswered, first.attempts);
		expect(second).toEqual({ attempts: { ...NO_ATTEMPTS, sent: 2 }, delayMs: 1_000 });
		expect(afterOutcome('GET', unanswered, second.attempts)).toEqual({
			attempts: { ...NO_ATTEMPTS, sent: 3 },
		});
	});

	it.each(['POST', 'PATCH', 'DELETE'] as const)(
		'does not send a %s that got no answer again: it may have been applied',
		(method) => {
			expect(afterOutcome(method, unanswered, NO_ATTEMPTS)).toEqual({
				attempts: { ...NO_ATTEMPTS, sent: 1 },
			});
		},
	);

	it('does not send a request that reached its deadline again', () => {
		expect(afterOutcome('GET', { kind: 'deadline' }, NO_ATTEMPTS)).toEqual({
			attempts: { ...NO_ATTEMPTS, sent: 1 },
		});
	});

	it.each([200, 204, 400, 404, 500, 503])('takes a %i as final', (status) => {
		const before: Attempts = { sent: 1, rateLimited: 1, waitedMs: 1_000, askedMs: 1_000 };
		expect(afterOutcome('GET', answered(status, { 'retry-after': '1' }), before)).toEqual({
			attempts: { ...before, sent: 2 },
		});
	});
});
