import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiRead } from '../../../shared/api';
import { customerIdLocator } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['get'] } },
	[customerIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	return await apiRead.call(this, API.customers, { id: customerId });
}
