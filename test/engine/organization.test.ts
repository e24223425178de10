import { runNode } from '../support/engine/harness';
import { useSandbox } from '../support/sandbox-fixture';
import { TEST_KEY } from '../../harness/constants';

const sandbox = useSandbox();

const getOrganization = { resource: 'organization', operation: 'get' };

describe('Organization', () => {
	it('gets the organization of a live key', async () => {
		const { items, error } = await runNode({
			parameters: getOrganization,
			credentials: sandbox.credentials(),
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ name: 'Acme Staffing', slug: 'acme', sandbox: false });
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const requests = await sandbox.requests();
		expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v1/organization',
		]);
	});

	it('gets the sandbox organization of a test key', async () => {
		const { items } = await runNode({
			parameters: getOrganization,
			credentials: sandbox.credentials(TEST_KEY),
		});

		expect(items[0].json).toMatchObject({ sandbox: true });
	});

	it('accepts a base URL with a trailing slash or without /api/v1', async () => {
		for (const baseUrl of [
			`${sandbox.sandbox.baseUrl}/`,
			sandbox.sandbox.origin,
			`${sandbox.sandbox.origin}/api/`,
		]) {
			const { items, error } = await runNode({
				parameters: getOrganization,
				credentials: { ...sandbox.credentials(), baseUrl },
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ slug: 'acme' });
		}
	});

	it('outputs one organization per input item, each paired with its item', async () => {
		const { items } = await runNode({
			parameters: getOrganization,
			credentials: sandbox.credentials(),
			inputItems: [{ row: 1 }, { row: 2 }, { row: 3 }],
		});

		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.every((item) => item.json.slug === 'acme')).toBe(true);
	});
});
