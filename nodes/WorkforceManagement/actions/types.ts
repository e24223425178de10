import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What every `actions/<resource>/<operation>.ts` module exports. */
export interface WorkforceOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}
