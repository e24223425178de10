import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as getAll from './getAll';
import * as redeliver from './redeliver';

export { getAll, redeliver };

export const description: INodeProperties[] = [
	operationSelector(
		'webhookDelivery',
		[
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
		'getAll',
	),
	...getAll.description,
	...redeliver.description,
];
