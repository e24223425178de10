import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as getAll from './getAll';

export const displayName = 'Webhook Event';

export const operations = { getAll } satisfies Record<string, WorkforceOperation>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
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
