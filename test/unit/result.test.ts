import type { IN8nHttpFullResponse, INode } from 'n8n-workflow';

import { NO_ATTEMPTS, resultOf } from '../../nodes/shared/transport';
import type { Attempts, RequestTarget, SendOutcome } from '../../nodes/shared/transport';

const node = { name: 'Workforce Management', type: 'wfm', typeVersion: 1 } as INode;

const target: RequestTarget = {
	node,
	method: 'GET',
	path: '/members',
	shownApiRoot: 'https://api.example.com/v1',
	redact: (text) => text.replaceAll('s3cret', '***'),
	operationScope: 'members:read',
};

function answered(statusCode: number, body: unknown): SendOutcome {
	return {
		kind: 'answered',
		response: { statusCode, headers: {}, body } as IN8nHttpFullResponse,
	};
}

function errorOf(outcome: SendOutcome, attempts: Attempts = { ...NO_ATTEMPTS, sent: 1 }) {
	try {
		resultOf(target, outcome, attempts);
	} catch (error) {
		return error as { message: string; description: string; httpCode?: string };
	}
	throw new Error('resultOf did not throw');
}

describe("resultOf: a request's final outcome, its body or the error", () => {
	it.each([200, 201, 299])('a %i with a JSON object gives the object', (status) => {
		const body = { id: 'm1' };
		expect(resultOf(target, answered(status, body), NO_ATTEMPTS)).toBe(body);
	});

	it('a 204 gives its empty body', () => {
		expect(resultOf(target, answered(204, ''), NO_ATTEMPTS)).toBe('');
	});

	it.each([
		['the JSON literal null', null],
		['a string (an HTML page)', '<html>login</html>'],
		['nothing', undefined],
	])('a 200 with %s is an unexpected answer', (_case, body) => {
		expect(errorOf(answered(200, body))).toMatchObject({
			message:
				'The Workforce Management API answered GET /members with a body that is not a JSON object',
		});
	});

	it.each([
		[199, 'The API refused the request with status 199: no reason given'],
		[300, 'The API refused the request with status 300: no reason given'],
		[404, 'The requested record does not exist in this organization (GET /members)'],
	])('a %i is an error', (status, message) => {
		expect(errorOf(answered(status, {}))).toMatchObject({ message, httpCode: String(status) });
	});

	it("a 403 names the operation's scope", () => {
		expect(errorOf(answered(403, {}))).toMatchObject({
			message: 'The API key lacks the scope "members:read" this operation needs',
		});
	});

	it("a 401 names the API's host, not the whole root", () => {
		expect(errorOf(answered(401, {})).message).toBe(
			'The Workforce Management API at api.example.com rejected this API key',
		);
	});

	it('a 429 says how often the node tried and how long it waited', () => {
		const attempts: Attempts = { sent: 5, rateLimited: 5, waitedMs: 4_000, askedMs: 1_000 };
		expect(errorOf(answered(429, {}), attempts).description).toMatch(
			/^Sent GET \/members 5 times and waited 4 s in all; the API last asked to wait 1 s\./,
		);
	});

	it('a deadline names the request and the 30 seconds', () => {
		expect(errorOf({ kind: 'deadline' }).message).toBe(
			'The Workforce Management API at https://api.example.com/v1 did not answer GET /members within 30 seconds',
		);
	});

	it('no answer names the attempts and the cause, redacted', () => {
		const error = errorOf(
			{ kind: 'unanswered', cause: 'connect to s3cret@host refused' },
			{
				...NO_ATTEMPTS,
				sent: 3,
			},
		);
		expect(error).toMatchObject({
			message: 'Could not reach the Workforce Management API at https://api.example.com/v1',
			description:
				'Tried GET /members 3 times. Check the Base URL in the credential. Cause: connect to ***@host refused',
		});
	});
});
