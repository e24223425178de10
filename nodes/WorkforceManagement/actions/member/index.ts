import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../common';
import type { WorkforceOperation } from '../types';
import * as create from './create';
import * as deactivate from './deactivate';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';
import * as verify from './verify';

export const displayName = 'Member';

export { output } from './output';

export const operations = { create, deactivate, get, getAll, update, verify } satisfies Record<
	string,
	WorkforceOperation
>;

export const description: INodeProperties[] = [
	operationSelector<keyof typeof operations>(
		'member',
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create a member (starts as draft)',
				action: 'Create a member',
			},
			{
				name: 'Deactivate',
				value: 'deactivate',
				description: 'Set a member inactive',
				action: 'Deactivate a member',
			},
			{ name: 'Get', value: 'get', description: 'Get a member', action: 'Get a member' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List members, newest first',
				action: 'Get many members',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change or clear fields of a member',
				action: 'Update a member',
			},
			{
				name: 'Verify',
				value: 'verify',
				description: 'Mark a member as verified',
				action: 'Verify a member',
			},
		],
		'getAll',
	),
	...getAll.description,
	...create.description,
	...get.description,
	...update.description,
	...verify.description,
	...deactivate.description,
];
