import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as create from './create';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const displayName = 'Customer';

export { output } from './output';

export const operations = { create, get, getAll, update } satisfies Record<
	string,
	WorkforceOperation
>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
		'customer',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create a customer',
				action: 'Create a customer',
			},
			{ name: 'Get', value: 'get', description: 'Get a customer', action: 'Get a customer' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List customers, newest first',
				action: 'Get many customers',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change or clear fields of a customer',
				action: 'Update a customer',
			},
		],
		'getAll',
	),
	...getAll.description,
	...create.description,
	...get.description,
	...update.description,
];
