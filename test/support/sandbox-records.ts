/** Records created through an in-process sandbox's public API, for the sandbox's own tests. */
import { LIVE_KEY } from '../../harness/constants';
import { api } from '../../harness/sandbox-api';
import type { Sandbox } from '../../sandbox';

/** Creates a record through the public API, expecting 201, and answers it. */
async function createRecord(sandbox: Sandbox, key: string, path: string, body: object) {
	const answer = await api(sandbox, key, 'POST', path, body);
	expect(answer.status).toBe(201);
	return answer.body;
}

export function createMember(
	sandbox: Sandbox,
	key = LIVE_KEY,
	body: object = { business_name: 'Harbor Cleaning Co' },
) {
	return createRecord(sandbox, key, '/members', body);
}

export function createCustomer(
	sandbox: Sandbox,
	key = LIVE_KEY,
	body: object = { name: 'Northwind Health' },
) {
	return createRecord(sandbox, key, '/customers', body);
}
