import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as create from './create';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const displayName = 'Site';

export { output } from './output';

export const operations = { create, get, getAll, update } satisfies Record<
	string,
	WorkforceOperation
>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
		'site',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create a site (a customer location)',
				action: 'Create a site',
			},
			{ name: 'Get', value: 'get', description: 'Get a site', action: 'Get a site' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sites, newest first',
				action: 'Get many sites',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change or clear fields of a site, or (de)activate it',
				action: 'Update a site',
			},
		],
		'getAll',
	),
	...getAll.description,
	...create.description,
	...get.description,
	...update.description,
];
