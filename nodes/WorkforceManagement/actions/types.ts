import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { RecordOutput } from './common/output';

/** An operation's entry in its resource's Operation dropdown. */
export interface OperationOption extends INodePropertyOptions {
	name: string;
	/** The `operation` parameter's value: how saved workflows name the operation. */
	value: string;
	description: string;
	/** The canvas subtitle and the operation's name as an AI tool ("Get a member"). */
	action: string;
}

/** What every `actions/<resource>/<operation>.ts` module exports. */
export interface WorkforceOperation {
	/** Its entry in the Operation dropdown, which lists a resource's entries sorted by name. */
	option: OperationOption;
	/** Its fields; the node shows them for this resource and operation only. */
	properties: INodeProperties[];
	/** The resource's records, when it returns them: the Output choice then shapes its result. */
	records?: RecordOutput;
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

/** What every `actions/<resource>/index.ts` module exports. */
export interface WorkforceResource {
	/** Its name in the Resource dropdown. */
	displayName: string;
	/** The registry: each operation module once, in the order the node lists their fields. */
	operations: readonly WorkforceOperation[];
	/** The operation a new node starts with. */
	defaultOperation: string;
}

/** The values of the operations in a registry, for a resource's `defaultOperation`. */
export type OperationValue<Operations extends readonly WorkforceOperation[]> =
	Operations[number]['option']['value'];
