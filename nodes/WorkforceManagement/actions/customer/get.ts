import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { customerIdLocator } from './fields';
import { PATH } from '../paths';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['customer'], operation: ['get'] } },
	[customerIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const customerId = getResourceId.call(this, 'customerId', 'Customer', itemIndex);
	return await workforceApiRequest.call(this, 'GET', `${PATH.customers}/${customerId}`, {
		operationScope: SCOPE.customersRead,
	});
}
