import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	assertUuid,
	getListLimit,
	resourceLocator,
	resourceLocatorValue,
	returnAllOrLimit,
} from '../common';
import { SCOPE, workforceApiPaginate } from '../../transport';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			resourceLocator({
				displayName: 'Customer',
				name: 'customer_id',
				searchListMethod: 'searchCustomers',
				description: "Return only this customer's sites",
				required: false,
			}),
			{
				displayName: 'Is Active',
				name: 'is_active',
				type: 'boolean',
				default: true,
				description: 'Whether to return only active sites (on) or only inactive ones (off)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = { ...filters };
	if (filters.customer_id !== undefined) {
		qs.customer_id = assertUuid.call(
			this,
			resourceLocatorValue(filters.customer_id),
			'Customer',
			itemIndex,
		);
	}
	return await workforceApiPaginate.call(this, '/sites', qs, limit, SCOPE.customersRead);
}
