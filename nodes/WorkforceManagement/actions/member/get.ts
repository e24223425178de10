import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../common';
import { API, apiRead } from '../../../shared/api';
import type { OperationOption } from '../types';
import { memberIdLocator } from './fields';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get a member',
	action: 'Get a member',
} as const satisfies OperationOption;

export { records } from './output';

export const properties: INodeProperties[] = [memberIdLocator];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const memberId = getResourceId.call(this, 'memberId', 'Member', itemIndex);
	return await apiRead.call(this, API.members, { id: memberId });
}
