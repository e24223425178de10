import type {
	IDataObject,
	IExecuteFunctions,
	INodeParameterResourceLocator,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_LIMIT } from './fields';
import {
	assertFieldTypes,
	assertListLimit,
	assertNonEmptyText,
	assertUuid,
	fieldError,
} from './validation';

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
	const limit = this.getNodeParameter('limit', itemIndex, DEFAULT_LIMIT);
	return assertListLimit.call(this, limit, itemIndex);
}

/**
 * A field left empty means "nothing given": a filter that filters nothing, a field a form or an
 * expression left blank. It is not sent (emptying a record's field is what Clear Fields does).
 */
export function withoutEmptyValues(values: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(values).filter(([, value]) => value !== '' && value !== undefined),
	);
}

/**
 * The query of a Get Many operation: its Filters, those left empty dropped. `locatorFilters` names
 * the filters that are resource locators (filter name → field name in errors); each is sent as its
 * id, checked to be a UUID.
 */
export function getManyQuery(
	this: IExecuteFunctions,
	itemIndex: number,
	locatorFilters: Record<string, string> = {},
): IDataObject {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: IDataObject = { ...filters };
	for (const [name, field] of Object.entries(locatorFilters)) {
		if (filters[name] !== undefined) {
			query[name] = assertUuid.call(this, resourceLocatorValue(filters[name]), field, itemIndex);
		}
	}
	return withoutEmptyValues(query);
}

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

/**
 * The values set in a collection of fields (Additional Fields, Update Fields), those left empty
 * dropped, each checked against the type of its field in `fields` (the collection's options).
 */
function getCollectionValues(
	this: IExecuteFunctions,
	collectionName: string,
	itemIndex: number,
	fields: INodeProperties[],
): IDataObject {
	const values = withoutEmptyValues(
		this.getNodeParameter(collectionName, itemIndex, {}) as IDataObject,
	);
	assertFieldTypes.call(this, values, fields, itemIndex);
	return values;
}

/**
 * The part of a Create operation's request body set in its Additional Fields, read by
 * {@link getCollectionValues}.
 */
export function getAdditionalFieldsBody(
	this: IExecuteFunctions,
	itemIndex: number,
	fields: INodeProperties[],
	nestedPaths: Record<string, string> = {},
): IDataObject {
	const additionalFields = getCollectionValues.call(this, 'additionalFields', itemIndex, fields);
	return toRequestBody(additionalFields, nestedPaths);
}

/**
 * The body of a PATCH: the fields set in Update Fields, those left empty dropped (checked against
 * the types of `fields`, the collection's options), plus `null` for each field picked in Clear
 * Fields. Refuses an update that changes nothing or sets and clears the same field.
 */
export function getUpdateBody(
	this: IExecuteFunctions,
	itemIndex: number,
	fields: INodeProperties[],
	nestedPaths: Record<string, string> = {},
): IDataObject {
	const updateFields = getCollectionValues.call(this, 'updateFields', itemIndex, fields);
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
		throw fieldError(
			this,
			itemIndex,
			'Update Fields',
			'must set or clear at least one field (an empty value is not sent: Clear Fields empties a field)',
		);
	}
	return body;
}
