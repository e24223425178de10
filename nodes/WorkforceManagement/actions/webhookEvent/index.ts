import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookEvent'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the event types that can be subscribed to',
				action: 'Get many webhook events',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
