import type { OperationValue } from '../types';
import * as get from './get';

export const displayName = 'Organization';

export const operations = [get];

export const defaultOperation: OperationValue<typeof operations> = 'get';
