/**
 * `node --expose-gc --import tsx bench/process-memory.ts [--workflows=1000]`: the heap the trigger's
 * in-process duplicate memory holds in one n8n process serving many trigger workflows, each with a
 * full memory (`ENVELOPE_MEMORY_LIMITS.maxEntries` ids), with the process bound as shipped and, for comparison, without it (every
 * registration kept, as before the bound). Prints both side by side.
 */
import { parseArgs } from 'node:util';

import {
	ACCEPTED_ENVELOPES_LIMITS,
	acceptEnvelope,
	processMemorySize,
} from '../nodes/WorkforceManagementTrigger/duplicates/acceptedEnvelopes';
import { ENVELOPE_MEMORY_LIMITS } from '../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';

const NOW = 1_767_225_600;

function collectedHeap(): number {
	if (!global.gc) throw new Error('Run with node --expose-gc --import tsx bench/process-memory.ts');
	global.gc();
	global.gc();
	return process.memoryUsage().heapUsed;
}

/** Each workflow in turn receives `maxEntries` deliveries, its static data saved between them. */
function fill(workflows: number): void {
	for (let workflow = 0; workflow < workflows; workflow++) {
		const owner = { workflowId: `wf-${workflow}`, nodeId: 'trigger', testListener: false };
		const staticData = {};
		for (let delivery = 0; delivery < ENVELOPE_MEMORY_LIMITS.maxEntries; delivery++) {
			const id = `evt_${workflow.toString(16)}_${delivery.toString(16)}`;
			acceptEnvelope(staticData, owner, id, NOW + delivery).settle(true);
		}
	}
}

function measure(workflows: number, maxRegistrations: number) {
	ACCEPTED_ENVELOPES_LIMITS.maxRegistrations = maxRegistrations;
	const before = collectedHeap();
	fill(workflows);
	const bytes = collectedHeap() - before;
	return { kept: processMemorySize(), bytes };
}

const { values } = parseArgs({ options: { workflows: { type: 'string', default: '1000' } } });
const workflows = Number(values.workflows);
const shipped = ACCEPTED_ENVELOPES_LIMITS.maxRegistrations;

// one module state: the bound first, then lifted (the second figure is the growth beyond it)
const bounded = measure(workflows, shipped);
const unbounded = measure(workflows, Number.MAX_SAFE_INTEGER);
const perRegistration = bounded.bytes / bounded.kept;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`${workflows} trigger workflows, ${ENVELOPE_MEMORY_LIMITS.maxEntries} ids each:`);
console.log(`| process memory | registrations kept | heap held |`);
console.log(`|---|---|---|`);
console.log(`| bounded (${shipped}, idle 1 h) | ${bounded.kept} | ${mb(bounded.bytes)} |`);
console.log(`| unbounded (before) | ${unbounded.kept} | ${mb(bounded.bytes + unbounded.bytes)} |`);
console.log(`about ${(perRegistration / 1024).toFixed(1)} KB per registration with a full memory`);
