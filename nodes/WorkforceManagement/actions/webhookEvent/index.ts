import type { OperationValue } from '../types';
import * as getAll from './getAll';

export const displayName = 'Webhook Event';

export const operations = [getAll];

export const defaultOperation: OperationValue<typeof operations> = 'getAll';
