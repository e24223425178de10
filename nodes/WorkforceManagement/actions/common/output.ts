import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { describeValue, fieldError } from './validation';

/**
 * What a resource returns as records, and how its Output choice shapes them; an operation that
 * returns such records exports it as `records`.
 */
export interface RecordOutput {
	/**
	 * The record's top-level fields as the API names them, offered under Selected Fields (sorted
	 * there). Each resource writes out its own, in the order of its table in the API specification:
	 * the names customers and sites have in common are two tables' names, not one list.
	 */
	fields: string[];
	/**
	 * The fields of a Simplified record, in order: what a person or an agent needs, the human
	 * name first and the UUIDs last (the editor's table gives every column room; a UUID up front
	 * wraps and pushes the name off a laptop screen), nothing nested, named as in the API (snake_case) so that an expression reads the same field in
	 * Simplified and Raw output. `address` is given as one line.
	 */
	simplified: string[];
	/** Simplified fields lifted from a nested object (`email` ← `contact.email`), null when absent. */
	lifted?: Record<string, string>;
}

/** Fields every shaped record keeps: the id, and a signing secret the API returns only once. */
const ALWAYS_KEPT = ['id', 'secret'];

const OUTPUT_MODES = ['simple', 'raw', 'fields'] as const;
type OutputMode = (typeof OUTPUT_MODES)[number];

/** "business_name" → "Business Name", "url" → "URL". */
function fieldTitle(field: string): string {
	return field
		.split('_')
		.map((word) => (['id', 'url'].includes(word) ? word.toUpperCase() : word))
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

function outputChoice(defaultMode: OutputMode, version: INodeProperties['displayOptions']) {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Simplified',
				value: 'simple',
				description: 'The fields a person or an AI agent needs, the address on one line',
			},
			{ name: 'Raw', value: 'raw', description: 'The record exactly as the API returns it' },
			{
				name: 'Selected Fields',
				value: 'fields',
				description: 'Only the fields picked below, as the API returns them',
			},
		],
		default: defaultMode,
		displayOptions: version,
	} satisfies INodeProperties;
}

/**
 * The Output choice of a resource's record operations and its Selected Fields. Version 1 of the
 * node defaults to Raw, so workflows saved before the choice existed (which store no `output`)
 * keep their output; version 2 defaults to Simplified.
 */
export function outputProperties(
	resource: string,
	operations: string[],
	output: RecordOutput,
): INodeProperties[] {
	const show = { resource: [resource], operation: operations };
	return [
		outputChoice('raw', { show: { ...show, '@version': [1] } }),
		outputChoice('simple', { show: { ...show, '@version': [{ _cnd: { gte: 2 } }] } }),
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			options: output.fields
				.filter((field) => !ALWAYS_KEPT.includes(field))
				.map((field) => ({ name: fieldTitle(field), value: field }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: [],
			description: 'The fields to keep; the ID is always kept',
			displayOptions: { show: { ...show, output: ['fields'] } },
		},
	];
}

/** One address object (line1, line2, city, state, postal_code, country) as one line, or null. */
function addressLine(address: unknown): string | null {
	if (address === null || typeof address !== 'object') return null;
	const { line1, line2, city, state, postal_code, country } = address as IDataObject;
	const region = [state, postal_code].filter(isText).join(' ');
	const parts = [line1, line2, city, region, country].filter(isText);
	return parts.length > 0 ? parts.join(', ') : null;
}

function isText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}

function valueAt(record: IDataObject, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], record);
}

/** The Simplified record: its fields picked, each lifted field read from its path. */
function simplify(output: RecordOutput, record: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const field of output.simplified) {
		const path = output.lifted?.[field];
		simple[field] = (
			field === 'address'
				? addressLine(record.address)
				: path
					? (valueAt(record, path) ?? null)
					: record[field]
		) as IDataObject[keyof IDataObject];
	}
	return simple;
}

function pick(record: IDataObject, fields: string[]): IDataObject {
	const picked: IDataObject = {};
	for (const field of fields) {
		if (field in record) picked[field] = record[field];
	}
	return picked;
}

/**
 * Reads the item's Output choice (before any request, so a bad choice sends nothing) and returns
 * the function that shapes the operation's records by it.
 */
export function recordShaper(
	this: IExecuteFunctions,
	output: RecordOutput,
	itemIndex: number,
): (records: IDataObject | IDataObject[]) => IDataObject | IDataObject[] {
	const mode = this.getNodeParameter('output', itemIndex, 'raw') as OutputMode;
	if (!OUTPUT_MODES.includes(mode)) {
		throw fieldError(
			this,
			itemIndex,
			'Output',
			`must be Simplified, Raw or Selected Fields, but is ${describeValue(mode)}`,
		);
	}
	if (mode === 'raw') return (records) => records;

	let shape: (record: IDataObject) => IDataObject;
	if (mode === 'simple') {
		shape = (record) => ({ ...simplify(output, record), ...pick(record, ['secret']) });
	} else {
		const fields = this.getNodeParameter('fields', itemIndex, []) as unknown;
		if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string')) {
			throw fieldError(
				this,
				itemIndex,
				'Fields',
				`must be a list of field names, but is ${describeValue(fields)}`,
			);
		}
		const kept = [...ALWAYS_KEPT, ...(fields as string[])];
		shape = (record) => pick(record, kept);
	}
	return (records) => (Array.isArray(records) ? records.map(shape) : shape(records));
}
