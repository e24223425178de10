import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as getAll from './getAll';
import * as redeliver from './redeliver';

export const displayName = 'Webhook Delivery';

export { output } from './output';

export const operations = { getAll, redeliver } satisfies Record<string, WorkforceOperation>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
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
