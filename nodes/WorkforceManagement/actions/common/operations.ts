/**
 * The shapes operations of two or more resources share, written once: an operation on one record
 * picked with a resource locator (Get, an action such as Verify, Delete), an Update of one record,
 * and a Get Many. An operation file declares its dropdown entry, its fields and what it calls; the
 * factory gives it the `option`, `properties` and `execute` a module of the registry exports.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList, apiRead, apiWrite } from '../../../shared/api';
import type { ApiPath } from '../../../shared/api';
import type { OperationOption } from '../types';
import { filtersCollection, returnAllOrLimit, updateFieldsCollection } from './fields';
import { getListLimit, getManyQuery, getResourceId, getUpdateBody } from './parameters';
import { assertNonEmptyText } from './validation';

/** What an operation module exports beside `records` (which it re-exports from its output.ts). */
export interface DeclaredOperation<Option extends OperationOption, Result> {
	option: Option;
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<Result>;
}

type WritableApiPath = ApiPath & { write: string };

/** What an operation on one record does with the record's id, checked to be a UUID. */
export type RecordCall = (
	this: IExecuteFunctions,
	id: string,
	itemIndex: number,
) => Promise<IDataObject>;

/**
 * An operation on one record, picked with `locator` (a resource locator, whose display name is the
 * field errors name): its id is read and checked before `run`. Its fields are the locator alone
 * unless `properties` lists them.
 */
export function recordOperation<const Option extends OperationOption>(spec: {
	option: Option;
	locator: INodeProperties;
	properties?: INodeProperties[];
	run: RecordCall;
}): DeclaredOperation<Option, IDataObject> {
	const { option, locator, run } = spec;
	return {
		option,
		properties: spec.properties ?? [locator],
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
			const id = getResourceId.call(this, locator.name, locator.displayName, itemIndex);
			return await run.call(this, id, itemIndex);
		},
	};
}

/** GET one record of `api`'s path. */
export function readRecord(api: ApiPath): RecordCall {
	return async function (this: IExecuteFunctions, id: string): Promise<IDataObject> {
		return await apiRead.call(this, api, { id });
	};
}

/** POST an action on one record of `api`'s path, with an empty body (`/members/<id>/verify`). */
export function postAction(api: WritableApiPath, action: string): RecordCall {
	return async function (this: IExecuteFunctions, id: string): Promise<IDataObject> {
		return await apiWrite.call(this, 'POST', api, { id, action, body: {} });
	};
}

/** What an Update does with the record's id and the body it read. */
export type SaveCall = (
	this: IExecuteFunctions,
	id: string,
	body: IDataObject,
) => Promise<IDataObject>;

/** PATCH one record of `api`'s path with `body`. */
export function patchRecord(api: WritableApiPath): SaveCall {
	return async function (this: IExecuteFunctions, id: string, body: IDataObject) {
		return await apiWrite.call(this, 'PATCH', api, { id, body });
	};
}

/**
 * An Update: the record's locator, Update Fields (`fields`) and Clear Fields (`clearFields`); the
 * body ({@link getUpdateBody}, nested by `nestedPaths`) is checked before `save` sends it: each
 * field of `nonEmptyText` (name → field name in errors) it sets must not be empty, then `check`
 * (which may normalise the body in place).
 */
export function updateOperation<const Option extends OperationOption>(spec: {
	option: Option;
	locator: INodeProperties;
	fields: INodeProperties[];
	clearFields: INodeProperties;
	nestedPaths?: Record<string, string>;
	nonEmptyText?: Record<string, string>;
	check?: (this: IExecuteFunctions, body: IDataObject, itemIndex: number) => void;
	save: SaveCall;
}): DeclaredOperation<Option, IDataObject> {
	const { fields, clearFields, nestedPaths, nonEmptyText = {}, check, save } = spec;
	return recordOperation({
		option: spec.option,
		locator: spec.locator,
		properties: [spec.locator, updateFieldsCollection(fields, clearFields), clearFields],
		async run(id, itemIndex) {
			const body = getUpdateBody.call(this, itemIndex, fields, nestedPaths);
			for (const [name, field] of Object.entries(nonEmptyText)) {
				if (body[name] !== undefined) assertNonEmptyText.call(this, body[name], field, itemIndex);
			}
			check?.call(this, body, itemIndex);
			return await save.call(this, id, body);
		},
	});
}

/** What a Get Many lists: the records matching `query`, up to `limit` (all when undefined). */
export type ListCall = (
	this: IExecuteFunctions,
	query: IDataObject,
	limit: number | undefined,
) => Promise<IDataObject[]>;

/** The records of `api`'s list path. */
export function listRecords(api: ApiPath): ListCall {
	return async function (this: IExecuteFunctions, query: IDataObject, limit: number | undefined) {
		return await apiList.call(this, api, query, limit);
	};
}

/**
 * A Get Many: Return All / Limit, then its Filters when it has any (sent as the query, see
 * {@link getManyQuery}; `locatorFilters` names the filters that are resource locators).
 */
export function getManyOperation<const Option extends OperationOption>(spec: {
	option: Option;
	filters?: INodeProperties[];
	locatorFilters?: Record<string, string>;
	list: ListCall;
}): DeclaredOperation<Option, IDataObject[]> {
	const { option, filters, locatorFilters, list } = spec;
	return {
		option,
		properties: filters ? [...returnAllOrLimit, filtersCollection(filters)] : returnAllOrLimit,
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
			const limit = getListLimit.call(this, itemIndex);
			const query = filters ? getManyQuery.call(this, itemIndex, locatorFilters) : {};
			return await list.call(this, query, limit);
		},
	};
}
