import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as get from './get';

export const displayName = 'Organization';

export const operations = { get } satisfies Record<string, WorkforceOperation>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
		'organization',
		[
			{
				name: 'Get',
				value: 'get',
				description: 'Get the organization the API key belongs to',
				action: 'Get the organization',
			},
		],
		'get',
	),
	...get.description,
];
