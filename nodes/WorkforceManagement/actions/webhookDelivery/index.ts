import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';
import * as redeliver from './redeliver';

export { getAll, redeliver };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookDelivery'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List recent delivery attempts',
				action: 'Get many webhook deliveries',
			},
			{
				name: 'Redeliver',
				value: 'redeliver',
				description: 'Queue a fresh delivery of an earlier event',
				action: 'Redeliver a webhook delivery',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
	...redeliver.description,
];
