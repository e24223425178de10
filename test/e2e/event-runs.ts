import { nodeOutput, type Execution } from '../../harness/n8n';

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

/**
 * Executions after a stop and a start, split in two: those that ran to the end (the trigger's
 * output, counted by event id) and those the stop left unfinished (`leftBehind`), each with the
 * status n8n gave it after the start and the event it was created for, read from the trigger's
 * items n8n saved in it. One left `new` never started; one left `running` (or marked `crashed`)
 * started and stopped part way.
 */
export function runsAcrossRestart(executions: Execution[], trigger: string, leftBehind: string[]) {
	const unfinished = new Set(leftBehind);
	const finished = new Map<string, number>();
	const interrupted: Array<{ id: string; status: string; event?: string }> = [];
	for (const execution of executions) {
		if (unfinished.has(execution.id) && execution.status !== 'success') {
			interrupted.push({
				id: execution.id,
				status: execution.status,
				event: createdFor(execution, trigger),
			});
			continue;
		}
		const event = String(nodeOutput(execution, trigger).id);
		finished.set(event, (finished.get(event) ?? 0) + 1);
	}
	const runs = (event: string) => finished.get(event) ?? 0;
	/** Executions of the event that started, whether they finished or were stopped part way. */
	const started = (event: string) =>
		runs(event) +
		interrupted.filter((each) => each.event === event && each.status !== 'new').length;
	return { runs, started, interrupted };
}

function createdFor(execution: Execution, trigger: string): string | undefined {
	const waiting = execution.data?.executionData?.nodeExecutionStack?.find(
		(entry) => entry.node.name === trigger,
	);
	const item =
		waiting?.data?.main[0]?.[0] ??
		execution.data?.resultData.runData[trigger]?.[0]?.data?.main[0]?.[0];
	const id = item?.json.id;
	return id === undefined ? undefined : String(id);
}
