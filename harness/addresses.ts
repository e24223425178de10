/**
 * Addresses on file for sandbox records. The API has no way of writing an address, so tests and
 * pictures that show one set it on the stored record of an in-process sandbox.
 */
import type { Sandbox } from '../sandbox';
import type { Address } from '../sandbox/store';

/** Example addresses (invented). */
export const EXAMPLE_ADDRESSES: Address[] = [
	{
		line1: '12 High Street',
		line2: null,
		city: 'Leeds',
		state: null,
		postal_code: 'LS1 4AP',
		country: 'GB',
	},
	{
		line1: '480 Mission Street',
		line2: 'Suite 200',
		city: 'San Francisco',
		state: 'CA',
		postal_code: '94105',
		country: 'US',
	},
	{
		line1: 'Keizersgracht 62',
		line2: null,
		city: 'Amsterdam',
		state: null,
		postal_code: '1015 CS',
		country: 'NL',
	},
];

/** Puts `address` on file for a member, customer or site the key's organization owns. */
export function setAddress(
	sandbox: Sandbox,
	apiKey: string,
	collection: 'members' | 'customers' | 'sites',
	id: string,
	address: Address,
): void {
	const stored = sandbox.state.store.grant(apiKey)?.tenant[collection].get(id);
	if (!stored) throw new Error(`No ${collection} record ${id} for this key`);
	stored.resource.address = { ...address };
}
