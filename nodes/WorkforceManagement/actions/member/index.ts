import type { OperationValue } from '../types';
import * as create from './create';
import * as deactivate from './deactivate';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';
import * as verify from './verify';

export const displayName = 'Member';

export const operations = [getAll, create, get, update, verify, deactivate];

export const defaultOperation: OperationValue<typeof operations> = 'getAll';
