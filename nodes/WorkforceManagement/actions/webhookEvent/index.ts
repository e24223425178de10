import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as getAll from './getAll';

export { getAll };

export const description: INodeProperties[] = [
	operationSelector(
		'webhookEvent',
		[
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the event types that can be subscribed to',
				action: 'Get many webhook events',
			},
		],
		'getAll',
	),
	...getAll.description,
];
