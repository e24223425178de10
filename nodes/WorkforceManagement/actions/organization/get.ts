import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { API, apiRead } from '../../../shared/api';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get',
	value: 'get',
	description: 'Get the organization the API key belongs to',
	action: 'Get the organization',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject> {
	return await apiRead.call(this, API.organization);
}
