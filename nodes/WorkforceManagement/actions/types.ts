import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RecordOutput } from './common/output';

/** What every `actions/<resource>/<operation>.ts` module exports. */
export interface WorkforceOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
}

/** What every `actions/<resource>/index.ts` module exports. */
export interface WorkforceResource {
	/** Its name in the Resource dropdown. */
	displayName: string;
	/** Its operations by the value of its Operation dropdown. */
	operations: Record<string, WorkforceOperation>;
	/** Its Operation dropdown and the fields of its operations. */
	description: INodeProperties[];
	/** Which operations return its records and how the Output choice shapes them; none for a
	 * resource whose results are already small (the organization, the event catalog). */
	output?: RecordOutput;
}
