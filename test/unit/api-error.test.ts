import type { INode } from 'n8n-workflow';

import {
	apiError,
	cutShortWording,
	deadlineError,
	describeFailure,
	unexpectedAnswerError,
	unreachableError,
} from '../../nodes/shared/transport';

const node: INode = {
	id: 'node-1',
	name: 'Workforce Management',
	type: 'n8n-nodes-workforce-management.workforceManagement',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function errorFor(
	statusCode: number,
	body: unknown,
	scope?: string,
	rateLimit?: Parameters<typeof apiError>[6],
) {
	const error = apiError(
		node,
		'GET',
		'/members/mem_1',
		{ statusCode, headers: {}, body } as never,
		scope,
		'api.example.com',
		rateLimit,
	);
	return { message: error.message, description: error.description, httpCode: error.httpCode };
}

const says = (message: string) => ({ error: { code: 'x', message } });

describe('apiError tells a no-code user what to fix', () => {
	it('401: the key, naming the instance it was sent to', () => {
		expect(errorFor(401, says('invalid key'))).toEqual({
			message: 'The Workforce Management API at api.example.com rejected this API key',
			description:
				'Copy the key again from the developer area of this instance: it must be complete and not revoked, and it works only on the instance it was created on. The API says: "invalid key"',
			httpCode: '401',
		});
	});

	it('403 module_inactive names the module of the scope, or says "a module"', () => {
		const body = { error: { code: 'module_inactive', message: 'off' } };
		expect(errorFor(403, body, 'members:read').message).toBe(
			'The members module is not active for this organization',
		);
		expect(errorFor(403, body, 'customers:write').message).toBe(
			'The customers module is not active for this organization',
		);
		expect(errorFor(403, body, 'webhooks:write').message).toBe(
			'A module this operation needs is not active for this organization',
		);
		expect(errorFor(403, body).description).toBe(
			'An administrator of the organization must activate the module before this operation can be used. The API says: "off"',
		);
	});

	it('403 otherwise names the missing scope when it is known', () => {
		expect(errorFor(403, says('no'), 'sites:write')).toMatchObject({
			message: 'The API key lacks the scope "sites:write" this operation needs',
			description:
				'Create a key with the "sites:write" scope in the developer area and use it in the credential. The API says: "no"',
		});
		expect(errorFor(403, {})).toMatchObject({
			message: 'The API key is not allowed to perform this operation',
			description:
				'Create a key with the needed scope in the developer area and use it in the credential.',
		});
	});

	it('404 names the request', () => {
		expect(errorFor(404, null).message).toBe(
			'The requested record does not exist in this organization (GET /members/mem_1)',
		);
	});

	it('400 and 422 list the fields, else the message, else "invalid input"', () => {
		const details = {
			error: {
				message: 'Validation failed',
				details: [
					{ field: 'email', message: 'is not an email' },
					{ field: 'phone' },
					{ message: 'one of two' },
					{},
				],
			},
		};
		expect(errorFor(422, details).message).toBe(
			'The API refused the request: email: is not an email; phone: invalid; one of two',
		);
		expect(errorFor(400, says('Bad cursor')).message).toBe(
			'The API refused the request: Bad cursor',
		);
		expect(errorFor(422, 'not json')).toMatchObject({
			message: 'The API refused the request: invalid input',
			description: 'Correct the field named above and run the node again.',
		});
	});

	it('429 says what the node tried', () => {
		expect(
			errorFor(429, {}, undefined, { attempts: 5, waitedMs: 4_000, askedMs: 1_000 }).description,
		).toBe(
			'Sent GET /members/mem_1 5 times and waited 4 s in all; the API last asked to wait 1 s. Run fewer requests at once, or retry later.',
		);
		expect(errorFor(429, {}).description).toBe('Run fewer requests at once, or retry later.');
	});

	it('another 4xx and a 5xx', () => {
		expect(errorFor(409, says('conflict'))).toMatchObject({
			message: 'The API refused the request with status 409: conflict',
			description: 'Correct what the API names and run the node again (GET /members/mem_1).',
		});
		expect(errorFor(418, {}).message).toBe(
			'The API refused the request with status 418: no reason given',
		);
		expect(errorFor(503, says('down'))).toMatchObject({
			message: 'The Workforce Management API failed with status 503 (GET /members/mem_1)',
			description: 'Retry later; if it persists, contact the provider. The API says: "down"',
			httpCode: '503',
		});
		expect(errorFor(500, {}).message).toBe(
			'The Workforce Management API failed with status 500 (GET /members/mem_1)',
		);
	});

	it('403 names several missing scopes, and who needs them, for the credential test', () => {
		expect(
			describeFailure({
				status: 403,
				body: {},
				request: 'GET /members',
				host: 'api.example.com',
				scopes: ['members:read', 'sites:read'],
				neededBy: 'the node needs',
			}),
		).toEqual({
			message: 'The API key lacks the scopes "members:read", "sites:read" the node needs',
			description:
				'Create a key with the "members:read", "sites:read" scopes in the developer area and use it in the credential.',
		});
	});

	it('404 says why a record may not be visible', () => {
		expect(errorFor(404, says('gone')).description).toBe(
			'Check the ID. A record of another organization, or one created with a key of the other mode (live or test), is not visible to this key. The API says: "gone"',
		);
	});

	it('429 says the API is still rate limiting', () => {
		expect(errorFor(429, {})).toMatchObject({
			message: 'The Workforce Management API is still rate limiting this key',
			httpCode: '429',
		});
	});

	it('reads module_inactive only on a 403', () => {
		const body = { error: { code: 'module_inactive', message: 'off' } };
		expect(errorFor(422, body, 'members:write').message).toBe('The API refused the request: off');
	});
});

describe('unreachableError says how often the request was sent', () => {
	it.each([
		[1, 'Sent POST /members once'],
		[3, 'Tried POST /members 3 times'],
	])('%i attempt(s)', (attempts, tried) => {
		const error = unreachableError(
			node,
			'https://api.example.com/api/v1',
			'POST /members',
			attempts,
			'read ECONNRESET',
		);
		expect(error).toMatchObject({
			message: 'Could not reach the Workforce Management API at https://api.example.com/api/v1',
			description: `${tried}. Check the Base URL in the credential. Cause: read ECONNRESET`,
			errorResponse: { message: 'read ECONNRESET' },
		});
	});
});

describe('unexpectedAnswerError names the request, and the records read when listing', () => {
	const advice =
		'Check that the Base URL in the credential points at the API (not at a proxy or login page); if it does, retry later or contact the provider.';

	it.each([
		[undefined, advice],
		[0, `Stopped after 0 records. ${advice}`],
		[200, `Stopped after 200 records. ${advice}`],
	])('records read: %s', (recordsRead, description) => {
		const error = unexpectedAnswerError(
			node,
			'GET /members',
			'a page without its "data" list',
			recordsRead,
		);
		expect(error).toMatchObject({
			message:
				'The Workforce Management API answered GET /members with a page without its "data" list',
			description,
			errorResponse: { request: 'GET /members' },
		});
	});
});

describe('deadlineError', () => {
	it('names the request and the deadline, and says what a slow answer may mean', () => {
		const error = deadlineError(node, 'https://api.example.com/v1', 'GET /members', 30_000);
		expect(error).toMatchObject({
			message:
				'The Workforce Management API at https://api.example.com/v1 did not answer GET /members within 30 seconds',
			description:
				'The node stops waiting 30 seconds after sending a request, also when part of the answer has come (a server or proxy sending it very slowly). Check that the Base URL in the credential points at the API itself, not at a proxy; if it does, retry later or contact the provider.',
			errorResponse: { message: 'no complete answer within 30 seconds' },
		});
	});
});

describe('cutShortWording', () => {
	const blankPassword = (text: string) => text.split('s3cret').join('***');

	it('names where a redirect pointed, with a password of the Base URL blanked', () => {
		const wording = cutShortWording(
			{ kind: 'redirected', statusCode: 302, location: 'https://ada:s3cret@other.example/login' },
			'https://api.example.com/api/v1',
			'GET /members',
			blankPassword,
		);
		expect(wording.message).toBe(
			'The Workforce Management API at https://api.example.com/api/v1 answered GET /members with a redirect to https://ada:***@other.example/login; check the Base URL',
		);
	});

	it('says when a redirect named no address', () => {
		const wording = cutShortWording(
			{ kind: 'redirected', statusCode: 304, location: undefined },
			'https://api.example.com/api/v1',
			'GET /members',
			blankPassword,
		);
		expect(wording.message).toBe(
			'The Workforce Management API at https://api.example.com/api/v1 answered GET /members with a redirect to no address (status 304); check the Base URL',
		);
	});

	it('names the request and the size limit of an answer too large', () => {
		const wording = cutShortWording(
			{ kind: 'tooLarge' },
			'https://api.example.com/api/v1',
			'GET /members',
			blankPassword,
		);
		expect(wording).toEqual({
			message:
				'The Workforce Management API at https://api.example.com/api/v1 answered GET /members with more than 16 MB',
			description: expect.stringMatching(/^The node stops reading an answer at 16 MB, /),
		});
	});
});
