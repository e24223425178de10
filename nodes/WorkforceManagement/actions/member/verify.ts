import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { SCOPE, workforceApiRequest } from '../../../shared/transport';
import { memberIdLocator } from './fields';
import { PATH } from '../paths';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['verify'] } },
	[memberIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const memberId = getResourceId.call(this, 'memberId', 'Member', itemIndex);
	return await workforceApiRequest.call(this, 'POST', `${PATH.members}/${memberId}/verify`, {
		body: {},
		operationScope: SCOPE.membersWrite,
	});
}
