import { nodeOutput, type Execution } from '../support/n8n';

/**
 * `<event id>: <runs>` for each id, counting the trigger's output over the executions; compared
 * with `onceEach(ids)`, a failure shows every event that ran twice or not at all.
 */
export function runsPerEvent(executions: Execution[], trigger: string, ids: string[]): string[] {
	const ran = executions.map((execution) => nodeOutput(execution, trigger).id);
	return ids.map((id) => `${id}: ${ran.filter((each) => each === id).length}`);
}

export function onceEach(ids: string[]): string[] {
	return ids.map((id) => `${id}: 1`);
}
