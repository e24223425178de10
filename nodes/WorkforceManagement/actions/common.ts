import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { workforceApiPaginate } from '../../shared/transport';

/** What every `actions/<resource>/<operation>.ts` module exports. */
export interface WorkforceOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

export const UUID_PATTERN =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const UUID_REGEX = new RegExp(UUID_PATTERN);

export const MAX_CAPACITY = Number.MAX_SAFE_INTEGER;

/* ---------------------------------------------------------------- fields */

/** The Operation dropdown of one resource. */
export function operationSelector(
	resource: string,
	operations: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations,
		default: defaultOperation,
	};
}

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

/** The optional fields of a Create operation. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Additional Fields', 'additionalFields', 'Add Field', options);
}

/** The fields an Update operation can set; see {@link getUpdateBody}. */
export function updateFieldsCollection(options: INodeProperties[]): INodeProperties {
	return collection('Update Fields', 'updateFields', 'Add Field', options);
}

/** The query filters of a Get Many operation; see {@link getManyRecords}. */
export function filtersCollection(options: INodeProperties[]): INodeProperties {
	return collection('Filters', 'filters', 'Add Filter', options);
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

/** The Return All / Limit pair of a Get Many operation. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
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

/* ------------------------------------------------------------ validation */

function fieldError(
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

/* ---------------------------------------------------------- parameters */

/** The id held by a resource locator parameter, checked to be a UUID. */
export function getResourceId(
	this: IExecuteFunctions,
	parameterName: string,
	field: string,
	itemIndex: number,
): string {
	const value = this.getNodeParameter(parameterName, itemIndex, '', { extractValue: true });
	return assertUuid.call(this, value, field, itemIndex);
}

/** The id held by a resource locator nested in a collection (extractValue only reads top-level ones). */
export function resourceLocatorValue(value: unknown): unknown {
	if (value !== null && typeof value === 'object' && '__rl' in value) {
		return (value as INodeParameterResourceLocator).value;
	}
	return value;
}

/** The text of a required parameter, checked not to be empty. */
export function getRequiredText(
	this: IExecuteFunctions,
	parameterName: string,
	field: string,
	itemIndex: number,
): string {
	const value = this.getNodeParameter(parameterName, itemIndex);
	return assertNonEmptyText.call(this, value, field, itemIndex);
}

/** `undefined` for Return All, else the validated Limit. */
export function getListLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = this.getNodeParameter('limit', itemIndex, 50);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw fieldError(
			this,
			itemIndex,
			'Limit',
			`must be a whole number of at least 1, but is ${JSON.stringify(limit)}`,
		);
	}
	return limit;
}

/**
 * The records of a Get Many operation: the list at `path`, queried with its Filters, up to the
 * Limit or all of them. `locatorFilters` names the filters that are resource locators (filter
 * name → field name in errors); each is sent as its id, checked to be a UUID.
 */
export async function getManyRecords(
	this: IExecuteFunctions,
	itemIndex: number,
	path: string,
	operationScope: string,
	locatorFilters: Record<string, string> = {},
): Promise<IDataObject[]> {
	const limit = getListLimit.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: IDataObject = { ...filters };
	for (const [name, field] of Object.entries(locatorFilters)) {
		if (filters[name] !== undefined) {
			query[name] = assertUuid.call(this, resourceLocatorValue(filters[name]), field, itemIndex);
		}
	}
	return await workforceApiPaginate.call(this, path, query, limit, operationScope);
}

/* ---------------------------------------------------------- request bodies */

function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let node = target;
	for (const key of keys.slice(0, -1)) {
		node[key] = (node[key] as IDataObject | undefined) ?? {};
		node = node[key] as IDataObject;
	}
	node[keys[keys.length - 1]] = value as IDataObject[keyof IDataObject];
}

/**
 * Builds a request body from a collection of fields named as in the API, nesting the ones
 * `nestedPaths` maps (e.g. `email` → `contact.email`).
 */
export function toRequestBody(
	fields: IDataObject,
	nestedPaths: Record<string, string> = {},
): IDataObject {
	const body: IDataObject = {};
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		setPath(body, nestedPaths[name] ?? name, value);
	}
	return body;
}

/** The part of a Create operation's request body set in its Additional Fields. */
export function getAdditionalFieldsBody(
	this: IExecuteFunctions,
	itemIndex: number,
	nestedPaths: Record<string, string> = {},
): IDataObject {
	const additionalFields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return toRequestBody(additionalFields, nestedPaths);
}

/**
 * The body of a PATCH: the fields set in Update Fields plus `null` for each field picked in
 * Clear Fields. Refuses an update that changes nothing or sets and clears the same field.
 */
export function getUpdateBody(
	this: IExecuteFunctions,
	itemIndex: number,
	nestedPaths: Record<string, string> = {},
): IDataObject {
	const updateFields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const clearFields = this.getNodeParameter('clearFields', itemIndex, []) as string[];
	const body = toRequestBody(updateFields, nestedPaths);

	for (const path of clearFields) {
		const setName = Object.keys(updateFields).find((name) => (nestedPaths[name] ?? name) === path);
		if (setName !== undefined) {
			throw fieldError(
				this,
				itemIndex,
				'Clear Fields',
				`lists "${path}", which Update Fields also sets`,
			);
		}
		setPath(body, path, null);
	}

	if (Object.keys(body).length === 0) {
		throw fieldError(this, itemIndex, 'Update Fields', 'must set or clear at least one field');
	}
	return body;
}
