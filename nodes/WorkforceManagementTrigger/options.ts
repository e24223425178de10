import type { TriggerNodeContext } from './operatorLog';

/** Recommended by the API: deliveries older or newer than five minutes are refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The trigger's Options collection, as n8n hands it over. */
export interface TriggerOptions {
	ignoreDuplicates?: boolean;
	ignoreTestDeliveries?: boolean;
	recoverMissedEvents?: boolean;
	/** How often the trigger reads its endpoint (recovery/endpointWatch.ts), in minutes. */
	endpointCheckMinutes?: number;
	/** A number from the field; an expression such as `{{ $env.WFM_TOLERANCE }}` gives a string. */
	signatureToleranceSeconds?: number | string;
}

export function triggerOptions(context: TriggerNodeContext): TriggerOptions {
	return context.getNodeParameter('options', {}) as TriggerOptions;
}

const DECIMAL_NUMBER = /^\s*\d+(?:\.\d+)?\s*$/;

/**
 * The signature tolerance in seconds: the default when unset, a number as given, a decimal string
 * ("300") as its number. Anything else is NaN, which verification refuses (it fails closed).
 */
export function toleranceSeconds(options: TriggerOptions): number {
	const value = options.signatureToleranceSeconds;
	if (value === undefined) return DEFAULT_TOLERANCE_SECONDS;
	if (typeof value === 'number') return value;
	return DECIMAL_NUMBER.test(value) ? Number(value) : Number.NaN;
}

export function isValidTolerance(seconds: number): boolean {
	return Number.isFinite(seconds) && seconds > 0;
}
