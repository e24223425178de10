import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getEventCatalog } from '../../../shared/eventCatalog';
import type { OperationOption } from '../types';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	description: 'List the event types that can be subscribed to',
	action: 'Get many webhook events',
} as const satisfies OperationOption;

export const properties: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<IDataObject[]> {
	return await getEventCatalog.call(this);
}
