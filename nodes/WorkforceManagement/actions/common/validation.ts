import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const UUID_REGEX = new RegExp(UUID_PATTERN);

export const MAX_CAPACITY = Number.MAX_SAFE_INTEGER;

/** The error of a field that cannot be sent as it is, naming the field and the item. */
export function fieldError(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The "${field}" field ${problem} (item ${itemIndex})`,
		{ itemIndex },
	);
}

export function assertUuid(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (typeof value !== 'string' || !UUID_REGEX.test(value.trim())) {
		const shown = typeof value === 'string' && value !== '' ? `"${value}"` : 'empty';
		throw fieldError(this, itemIndex, field, `must be a UUID, but is ${shown}`);
	}
	return value.trim();
}

export function assertNonEmptyText(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw fieldError(this, itemIndex, field, 'must not be empty');
	}
	return value;
}

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

export function assertHttpsUrl(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	let protocol: string | undefined;
	try {
		protocol = new URL(String(value)).protocol;
	} catch {
		protocol = undefined;
	}
	if (protocol !== 'https:') {
		throw fieldError(this, itemIndex, field, `must be an https:// URL, but is "${String(value)}"`);
	}
	return String(value);
}

export function assertEventList(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string[] {
	const events = (Array.isArray(value) ? value : [value]).filter(
		(event): event is string => typeof event === 'string' && event.trim() !== '',
	);
	if (events.length === 0) {
		throw fieldError(this, itemIndex, field, 'must name at least one event (or All Events)');
	}
	// The API takes "all" only as the single-element list ['*'].
	return events.includes('*') ? ['*'] : events;
}

export function assertListLimit(
	this: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		throw fieldError(
			this,
			itemIndex,
			'Limit',
			`must be a whole number of at least 1, but is ${JSON.stringify(value)}`,
		);
	}
	return value;
}
