import {
	describeRateLimitAttempts,
	RATE_LIMIT_MAX_ATTEMPTS,
	retryAfterMs,
} from '../../nodes/shared/transport';

describe('retryAfterMs reads a Retry-After header', () => {
	const now = Date.parse('2026-11-25T12:00:00Z');

	it.each([
		['seconds', '3', 3_000],
		['fractional seconds, rounded up', '0.25', 250],
		['zero', '0', 0],
		['a number', 2, 2_000],
		['the first of several values', ['4', '9'], 4_000],
		['an HTTP date ahead', 'Wed, 25 Nov 2026 12:00:07 GMT', 7_000],
		['an HTTP date already past', 'Wed, 25 Nov 2026 11:59:00 GMT', 0],
	])('%s', (_case, header, expected) => {
		expect(retryAfterMs(header, now)).toBe(expected);
	});

	it.each([
		['missing', undefined],
		['null', null],
		['neither seconds nor a date', 'soon'],
		['a negative number of seconds', '-5'],
		['infinite', 'Infinity'],
		['an object', { seconds: 3 }],
	])('falls back to 1 s when %s', (_case, header) => {
		expect(retryAfterMs(header, now)).toBe(1_000);
	});
});

describe('describeRateLimitAttempts says what the node did', () => {
	it('after the last attempt: how often, how long in all, and what the API asked last', () => {
		expect(
			describeRateLimitAttempts('GET /members', {
				attempts: RATE_LIMIT_MAX_ATTEMPTS,
				waitedMs: 4_000,
				askedMs: 1_000,
			}),
		).toBe('Sent GET /members 5 times and waited 4 s in all; the API last asked to wait 1 s.');
	});

	it('when the first 429 asks for more than the node waits per request', () => {
		expect(
			describeRateLimitAttempts('GET /members', { attempts: 1, waitedMs: 0, askedMs: 120_000 }),
		).toBe(
			'Sent GET /members once and waited 0 s; the API asked to wait 120 s, longer than the 60 s the node waits per request.',
		);
	});

	it('when a later 429 asks for more than is left of the budget', () => {
		expect(
			describeRateLimitAttempts('POST /members', {
				attempts: 2,
				waitedMs: 30_000,
				askedMs: 45_500,
			}),
		).toBe(
			'Sent POST /members 2 times and waited 30 s in all; the API asked to wait 45.5 s, more than is left of the 60 s the node waits per request.',
		);
	});
});
