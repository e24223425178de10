import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeError, NodeOperationError } from 'n8n-workflow';

import { findOperation } from './resources';
import { recordShaper } from './common/output';

/** The error that stops the node, marked with the input item it failed on. */
function attachItemIndex(context: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	if (error instanceof NodeError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * Runs the chosen operation once per input item: one output item per returned record, shaped by
 * the Output choice when the operation returns records, each paired with its input item; a failure becomes an error item when the node continues on fail
 * (decided by the node's execute()), else it stops the node with the failing item's itemIndex.
 */
export async function router(
	this: IExecuteFunctions,
	{ continueOnFail }: { continueOnFail: boolean },
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const found = findOperation(resource, operation);
	if (found === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for resource "${resource}"`,
		);
	}

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const shape = found.records ? recordShaper.call(this, found.records, itemIndex) : undefined;
			const result = await found.execute.call(this, itemIndex);
			const executionData = this.helpers.constructExecutionMetaData(
				this.helpers.returnJsonArray(shape ? shape(result) : result),
				{ itemData: { item: itemIndex } },
			);
			// Not push(...executionData): a spread call takes at most ~120,000 arguments, and Return
			// All can yield more records than that.
			for (const item of executionData) returnData.push(item);
		} catch (error) {
			if (continueOnFail) {
				returnData.push({
					json: { error: (error as Error).message },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw attachItemIndex(this, error, itemIndex);
		}
	}
	return [returnData];
}
