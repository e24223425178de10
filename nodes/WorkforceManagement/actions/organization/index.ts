import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import * as get from './get';

export { get };

export const description: INodeProperties[] = [
	operationSelector(
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
