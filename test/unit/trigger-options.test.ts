import type { IHookFunctions } from 'n8n-workflow';

import {
	DEFAULT_TOLERANCE_SECONDS,
	isValidTolerance,
	toleranceSeconds,
	triggerOptions,
} from '../../nodes/WorkforceManagementTrigger/options';

describe("the trigger's Options", () => {
	it("are read from the 'options' parameter, an empty collection when unset", () => {
		const calls: unknown[][] = [];
		const context = {
			getNodeParameter: (...args: unknown[]) => {
				calls.push(args);
				return { ignoreDuplicates: true };
			},
		} as unknown as IHookFunctions;

		expect(triggerOptions(context)).toEqual({ ignoreDuplicates: true });
		expect(calls).toEqual([['options', {}]]);
	});
});

describe('toleranceSeconds reads the signature tolerance', () => {
	it('is the default when unset', () => {
		expect(toleranceSeconds({})).toBe(DEFAULT_TOLERANCE_SECONDS);
	});

	it.each([
		['a number, as given', 120, 120],
		['zero, as given (refused later)', 0, 0],
		['a decimal string', '300', 300],
		['a decimal string with a fraction and spaces', ' 1.5 ', 1.5],
	])('%s', (_case, value, expected) => {
		expect(toleranceSeconds({ signatureToleranceSeconds: value })).toBe(expected);
	});

	it.each([
		['words', 'five minutes'],
		['a number followed by a unit', '300 s'],
		['a number after other text', 'x300'],
		['a negative number', '-5'],
		['an exponent', '1e3'],
		['a fraction without its integer part', '.5'],
		['a point without decimals', '5.'],
		['an empty string', ''],
	])('is NaN for %s, which verification refuses', (_case, value) => {
		expect(toleranceSeconds({ signatureToleranceSeconds: value })).toBeNaN();
	});
});

describe('isValidTolerance', () => {
	it.each([
		[300, true],
		[0.5, true],
		[0, false],
		[-1, false],
		[Number.NaN, false],
		[Number.POSITIVE_INFINITY, false],
	])('%d: %s', (seconds, valid) => {
		expect(isValidTolerance(seconds)).toBe(valid);
	});
});
