import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const UUID_REGEX = new RegExp(UUID_PATTERN);

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

/** A value as an error shows it: text quoted, anything else by its type. */
export function describeValue(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'empty';
	if (typeof value === 'string') return `"${value}"`;
	if (typeof value === 'number' || typeof value === 'boolean')
		return `the ${typeof value} ${value}`;
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function assertUuid(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (typeof value !== 'string' || !UUID_REGEX.test(value.trim())) {
		throw fieldError(this, itemIndex, field, `must be a UUID, but is ${describeValue(value)}`);
	}
	return value.trim();
}

export function assertNonEmptyText(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	if (typeof value === 'string' ? value.trim() === '' : describeValue(value) === 'empty') {
		throw fieldError(this, itemIndex, field, 'must not be empty');
	}
	if (typeof value !== 'string') {
		throw fieldError(this, itemIndex, field, `must be text, but is ${describeValue(value)}`);
	}
	return value;
}

/** What a value of a field of this type must be, or undefined when it is one. */
function typeProblem(field: INodeProperties, value: unknown): string | undefined {
	switch (field.type) {
		case 'string':
			return typeof value === 'string' ? undefined : 'must be text';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be true or false';
		case 'options': {
			const allowed = (field.options ?? []).map((option) =>
				'value' in option ? option.value : '',
			);
			return allowed.includes(value as string)
				? undefined
				: `must be one of: ${allowed.join(', ')}`;
		}
		default:
			return undefined;
	}
}

/** An address with one @, a dot in its domain and no spaces: what a mail server can route. */
const EMAIL_REGEX = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Digits with the usual separators, an optional leading + and extension: 5 to 15 digits (E.164). */
const PHONE_REGEX = /^\+?[\d\s()./-]+((ext\.?|x)\s*\d{1,6})?$/i;

function isPhoneNumber(text: string): boolean {
	const digits = text.replace(/(ext\.?|x)\s*\d+$/i, '').replace(/\D/g, '').length;
	return PHONE_REGEX.test(text) && digits >= 5 && digits <= 15;
}

const TEXT_SHAPES = {
	email: {
		test: (text: string) => EMAIL_REGEX.test(text),
		like: 'an email address like name@example.com',
	},
	phone: { test: isPhoneNumber, like: 'a phone number like +1 555 0100 (5 to 15 digits)' },
};

/** The text fields that hold an email address or a phone number, by their API name. */
const SHAPED_FIELDS: Record<string, keyof typeof TEXT_SHAPES> = {
	email: 'email',
	contact_email: 'email',
	phone: 'phone',
	contact_phone: 'phone',
};

/**
 * What a non-empty email or phone value must look like, or undefined when it does: the API
 * stores any text, so a typo or an agent's guess would become the member's address.
 */
function textShapeProblem(fieldName: string, value: unknown): string | undefined {
	const shape = TEXT_SHAPES[SHAPED_FIELDS[fieldName]];
	if (!shape || typeof value !== 'string' || value.trim() === '' || shape.test(value))
		return undefined;
	return `must be ${shape.like}`;
}

/**
 * Checks each value set in a collection (Additional Fields, Update Fields) against the type of
 * its field (an expression can hand any field an object or a list), and an email or phone value
 * against its shape.
 */
export function assertFieldTypes(
	this: IExecuteFunctions,
	values: IDataObject,
	fields: INodeProperties[],
	itemIndex: number,
): void {
	for (const [name, value] of Object.entries(values)) {
		const field = fields.find((candidate) => candidate.name === name);
		const problem =
			field && value !== undefined
				? (typeProblem(field, value) ?? textShapeProblem(name, value))
				: undefined;
		if (field && problem) {
			throw fieldError(
				this,
				itemIndex,
				field.displayName,
				`${problem}, but is ${describeValue(value)}`,
			);
		}
	}
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
