import type { OperationValue } from '../types';
import * as create from './create';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const displayName = 'Site';

export const operations = [getAll, create, get, update];

export const defaultOperation: OperationValue<typeof operations> = 'getAll';
