/**
 * The contract behind n8n's node-operation-error-itemindex rule, checked at run time: the error
 * that stops the node names the input item that failed, whether it was raised by our own
 * validation (inside the item loop) or by the shared transport (which has no item at hand and is
 * marked by the router). Items other than the first, so a default of 0 cannot pass.
 */
import { byId, runNode } from './harness';
import { useSandbox } from './sandbox-fixture';

const sandbox = useSandbox();
const UNKNOWN_ID = '0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192';

describe('the error that stops the node carries the failing item', () => {
	it('a validation error on item 1', async () => {
		const { error, items } = await runNode({
			parameters: { resource: 'member', operation: 'create', businessName: '={{ $json.name }}' },
			credentials: sandbox.credentials(),
			inputItems: [{ name: 'First' }, { name: '' }, { name: 'Third' }],
		});

		expect(items).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: 'The "Business Name" field must not be empty (item 1)',
			context: { itemIndex: 1 },
		});
		expect(await sandbox.requests()).toHaveLength(1);
	});

	it('an API error (404 from the transport) on item 2', async () => {
		const member = await sandbox.api<{ id: string }>('POST', '/members', {
			business_name: 'Ada Care',
		});
		await sandbox.clearRequests();

		const { error } = await runNode({
			parameters: { resource: 'member', operation: 'get', memberId: byId('={{ $json.id }}') },
			credentials: sandbox.credentials(),
			inputItems: [{ id: member.id }, { id: member.id }, { id: UNKNOWN_ID }],
		});

		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 2 },
		});
		expect(await sandbox.requests()).toHaveLength(3);
	});
});
