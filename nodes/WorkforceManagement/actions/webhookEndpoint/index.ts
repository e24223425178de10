import type { OperationValue } from '../types';
import * as create from './create';
import * as deleteEndpoint from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as recoverMissedEvents from './recoverMissedEvents';
import * as rollSecret from './rollSecret';
import * as sendTest from './sendTest';
import * as update from './update';

export const displayName = 'Webhook Endpoint';

export const operations = [
	getAll,
	create,
	get,
	update,
	deleteEndpoint,
	recoverMissedEvents,
	rollSecret,
	sendTest,
];

export const defaultOperation: OperationValue<typeof operations> = 'getAll';
