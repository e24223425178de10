import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiWrite } from '../../../shared/api';
import type { OperationOption } from '../types';
import { memberIdLocator } from './fields';

export const option = {
	name: 'Deactivate',
	value: 'deactivate',
	description: 'Set a member inactive',
	action: 'Deactivate a member',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [memberIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const memberId = getResourceId.call(this, 'memberId', 'Member', itemIndex);
	return await apiWrite.call(this, 'POST', API.members, {
		id: memberId,
		action: 'deactivate',
		body: {},
	});
}
