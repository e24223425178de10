import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiWrite } from '../../../shared/api';
import { memberIdLocator } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['member'], operation: ['deactivate'] } },
	[memberIdLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const memberId = getResourceId.call(this, 'memberId', 'Member', itemIndex);
	return await apiWrite.call(this, 'POST', API.members, {
		id: memberId,
		action: 'deactivate',
		body: {},
	});
}
