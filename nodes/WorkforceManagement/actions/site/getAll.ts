import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	filtersCollection,
	getManyRecords,
	isActiveFilter,
	resourceLocator,
	returnAllOrLimit,
} from '../common';
import { API } from '../../../shared/api';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		resourceLocator({
			displayName: 'Customer',
			name: 'customer_id',
			searchListMethod: 'searchCustomers',
			description: "Return only this customer's sites",
			required: false,
		}),
		isActiveFilter('sites'),
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['site'], operation: ['getAll'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.sites, {
		customer_id: 'Customer',
	});
}
