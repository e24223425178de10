import type { OperationValue } from '../types';
import * as getAll from './getAll';
import * as redeliver from './redeliver';

export const displayName = 'Webhook Delivery';

export const operations = [getAll, redeliver];

export const defaultOperation: OperationValue<typeof operations> = 'getAll';
