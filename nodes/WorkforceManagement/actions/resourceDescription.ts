import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RecordOutput } from './common/output';
import { outputProperties } from './common/output';
import type { OperationOption, WorkforceOperation, WorkforceResource } from './types';

/** A resource's operations in the order of its Operation dropdown: by name. */
function byName(resource: WorkforceResource): WorkforceOperation[] {
	return [...resource.operations].sort((a, b) => a.option.name.localeCompare(b.option.name));
}

/** The entries of a resource's Operation dropdown. */
export function operationOptions(resource: WorkforceResource): OperationOption[] {
	return byName(resource).map((operation) => operation.option);
}

function operationSelector(name: string, resource: WorkforceResource): INodeProperties {
	const { defaultOperation } = resource;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options: operationOptions(resource),
		default: defaultOperation,
	};
}

/** The Output choice, shown for the operations that return records (one per kind of record). */
function recordOutputs(name: string, resource: WorkforceResource): INodeProperties[] {
	const operationsByRecords = new Map<RecordOutput, string[]>();
	for (const { option, records } of byName(resource)) {
		if (!records) continue;
		operationsByRecords.set(records, [...(operationsByRecords.get(records) ?? []), option.value]);
	}
	return [...operationsByRecords].flatMap(([records, operations]) =>
		outputProperties(name, operations, records),
	);
}

/**
 * A resource's part of the node's description, all of it read from its operation modules: its
 * Operation dropdown, each operation's fields shown for that operation alone, then the Output choice.
 */
export function resourceDescription(name: string, resource: WorkforceResource): INodeProperties[] {
	return [
		operationSelector(name, resource),
		...resource.operations.flatMap((operation) =>
			updateDisplayOptions(
				{ show: { resource: [name], operation: [operation.option.value] } },
				operation.properties,
			),
		),
		...recordOutputs(name, resource),
	];
}
