import type { INodeProperties } from 'n8n-workflow';

import { UUID_PATTERN } from './validation';

/** An id picked from a searchable list, or typed in and checked to be a UUID. */
export function resourceLocator(options: {
	displayName: string;
	name: string;
	searchListMethod: string;
	description?: string;
	required?: boolean;
}): INodeProperties {
	const noun = options.displayName.toLowerCase();
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${noun}...`,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 0b6a3c2e-4f1d-4c8e-9a7b-2d5e6f708192',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_PATTERN, errorMessage: `Not a valid ${noun} ID (a UUID)` },
					},
				],
			},
		],
	};
}

function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** A text field with the hint that says what an empty value does, unless it has a hint of its own. */
function withEmptyValueHint(field: INodeProperties, hint: string): INodeProperties {
	return field.type === 'string' && field.hint === undefined ? { ...field, hint } : field;
}

/** The optional fields of a Create operation; an empty one is not sent (see {@link withoutEmptyValues}). */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection(
		'Additional Fields',
		'additionalFields',
		'Add Field',
		options.map((field) =>
			withEmptyValueHint(field, 'Not sent when empty (a blank form field, an expression giving "")'),
		),
	);
}

/**
 * The fields an Update operation can set (see {@link getUpdateBody}): an empty one is left as it
 * is on the record; the ones `clearFields` (from {@link clearFieldsProperty}) offers say so.
 */
export function updateFieldsCollection(
	options: INodeProperties[],
	clearFields?: INodeProperties,
): INodeProperties {
	const clearable = new Set((clearFields?.options ?? []).map((option) => option.name));
	return collection(
		'Update Fields',
		'updateFields',
		'Add Field',
		options.map((field) =>
			withEmptyValueHint(
				field,
				clearable.has(field.displayName)
					? 'Left as it is when empty (a blank form field, an expression giving ""): to empty it on the record, pick it in Clear Fields'
					: 'Left as it is when empty (a blank form field, an expression giving "")',
			),
		),
	);
}

/** The query filters of a Get Many operation; see {@link getManyOperation}. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return collection('Filters', 'filters', 'Add Filter', options);
}

/** An operation's optional settings that are not record fields. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Options', 'options', 'Add Option', options);
}

/** The Is Active filter of a Get Many operation; `records` names them in the plural. */
export function isActiveFilter(records: string): INodeProperties {
	return {
		displayName: 'Is Active',
		name: 'is_active',
		type: 'boolean',
		default: true,
		description: `Whether to return only active ${records} (on) or only inactive ones (off)`,
	};
}

/**
 * One event type of the organization's catalog (the `getEventTypes` load-options method), sent as
 * `event_type`; `description` says what it is for.
 */
export function eventTypeField(description: string): INodeProperties {
	return {
		displayName: 'Event Name or ID',
		name: 'event_type',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getEventTypes' },
		default: '',
		description: `${description}. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	// A literal, as n8n's lint rule for Limit fields requires; DEFAULT_LIMIT reads it from here.
	default: 50,
	description: 'Max number of results to return',
	hint: 'A whole number of at least 1',
	displayOptions: { show: { returnAll: [false] } },
};

/** The Limit a Get Many operation starts with. */
export const DEFAULT_LIMIT = limitField.default as number;

/** The Return All / Limit pair of a Get Many operation. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitField,
];

/** Fields customers and sites both have, named as in the API. */
export const contactNameField: INodeProperties = {
	displayName: 'Contact Name',
	name: 'contact_name',
	type: 'string',
	default: '',
};

export const contactPhoneField: INodeProperties = {
	displayName: 'Contact Phone',
	name: 'contact_phone',
	type: 'string',
	default: '',
};

export const notesField: INodeProperties = {
	displayName: 'Notes',
	name: 'notes',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
};

/**
 * "Clear Fields": the nullable fields an update sets to null, listed by name so that emptying a
 * field is an explicit choice rather than a side effect of leaving a box blank. Each is offered
 * under its name in Update Fields and cleared at the path it is set at (see {@link getUpdateBody}).
 */
export function clearFieldsProperty(
	nullableFields: INodeProperties[],
	nestedPaths: Record<string, string> = {},
): INodeProperties {
	return {
		displayName: 'Clear Fields',
		name: 'clearFields',
		type: 'multiOptions',
		options: nullableFields.map((field) => ({
			name: field.displayName,
			value: nestedPaths[field.name] ?? field.name,
		})),
		default: [],
		description:
			'Fields to empty (set to null) on the record. A field cannot be both set in Update Fields and cleared.',
	};
}
