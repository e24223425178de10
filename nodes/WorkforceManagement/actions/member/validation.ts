import type { IExecuteFunctions } from 'n8n-workflow';

import { fieldError } from '../common';

export const MAX_CAPACITY = Number.MAX_SAFE_INTEGER;

export function assertCapacity(this: IExecuteFunctions, value: unknown, itemIndex: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_CAPACITY) {
		throw fieldError(
			this,
			itemIndex,
			'Capacity',
			`must be a whole number from 0 to ${MAX_CAPACITY}, but is ${JSON.stringify(value)}`,
		);
	}
	return value;
}
