import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	filtersCollection,
	getManyRecords,
	isActiveFilter,
	resourceLocator,
	returnAllOrLimit,
} from '../common';
import { API } from '../../../shared/api';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List sites, newest first',
	action: 'Get many sites',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return await getManyRecords.call(this, itemIndex, API.sites, {
		customer_id: 'Customer',
	});
}
