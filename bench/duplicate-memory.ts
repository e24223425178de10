/**
 * `npx tsx bench/duplicate-memory.ts`: what the trigger's duplicate memory weighs in static data
 * (which n8n copies into every execution record) at a steady rate of events, and what recording
 * one delivery costs in CPU at that size. A stream of 30 hours at each rate, through the same
 * function the webhook calls, static data round-tripped through JSON between deliveries as n8n's
 * database does; then, at a full memory, bursts of 16 deliveries at once, each request loading
 * static data saved before the burst (as n8n loads it per request), so each finds ids it lacks.
 * Prints a table; nothing is asserted.
 */
import {
	acceptEnvelope,
	type MemoryOwner,
} from '../nodes/WorkforceManagementTrigger/duplicates/acceptedEnvelopes';
import {
	ENVELOPE_MEMORY_LIMITS,
	EVENTS_PER_HOUR_COVERED,
} from '../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';

const START = 1_767_225_600;
const HOUR = 3600;
const RATES = [13, 27, EVENTS_PER_HOUR_COVERED];

function stream(eventsPerHour: number) {
	const owner = { workflowId: `wf-${eventsPerHour}`, nodeId: 'trigger', testListener: false };
	let staticData: Record<string, unknown> = {};
	const total = eventsPerHour * ENVELOPE_MEMORY_LIMITS.windowHours;
	let spentMs = 0;
	for (let index = 0; index < total; index++) {
		const at = START + Math.floor((index * HOUR) / eventsPerHour);
		const id = `evt_${eventsPerHour.toString(16)}${index.toString(16).padStart(20, '0')}`;
		staticData = JSON.parse(JSON.stringify(staticData)) as Record<string, unknown>;
		const started = performance.now();
		acceptEnvelope(staticData, owner, id, at).settle(true);
		spentMs += performance.now() - started;
	}
	const bytes = JSON.stringify({ seenEnvelopes: staticData.seenEnvelopes }).length;
	return {
		total,
		bytes,
		microsPerDelivery: (spentMs / total) * 1000,
		owner,
		staticData,
		at: START + 30 * HOUR,
	};
}

const BURST = 16;

interface Filled {
	owner: MemoryOwner;
	staticData: Record<string, unknown>;
	at: number;
}

/** µs a delivery in `count` bursts of `BURST` at once, each request loading the save before it. */
function bursts(filled: Filled, count: number): number {
	let saved = JSON.stringify(filled.staticData);
	let spentMs = 0;
	for (let burst = 0; burst < count; burst++) {
		const requests = Array.from(
			{ length: BURST },
			() => JSON.parse(saved) as Record<string, unknown>,
		);
		const started = performance.now();
		const acceptances = requests.map((staticData, index) =>
			acceptEnvelope(staticData, filled.owner, `evt_burst_${burst}_${index}`, filled.at + burst),
		);
		for (const acceptance of acceptances) acceptance.settle(true);
		spentMs += performance.now() - started;
		saved = JSON.stringify(requests[BURST - 1]);
	}
	return (spentMs / (count * BURST)) * 1000;
}

/** A full memory whose 3,000 ids arrived within one hour, as `npm run bench` fills it. */
function filledInOneHour(): Filled {
	const owner = { workflowId: 'wf-one-hour', nodeId: 'trigger', testListener: false };
	let staticData: Record<string, unknown> = {};
	for (let index = 0; index < ENVELOPE_MEMORY_LIMITS.maxEntries; index++) {
		staticData = JSON.parse(JSON.stringify(staticData)) as Record<string, unknown>;
		acceptEnvelope(staticData, owner, `evt_fill_${index}`, START).settle(true);
	}
	return { owner, staticData, at: START + 60 };
}

// warm-up, so that the first rate printed is not the JIT's
stream(EVENTS_PER_HOUR_COVERED + 1);
console.log(
	`duplicate memory: ${ENVELOPE_MEMORY_LIMITS.maxEntries} ids at most, ${ENVELOPE_MEMORY_LIMITS.windowHours} hours`,
);
console.log(
	'| events an hour | ids held after 30 h | static data `seenEnvelopes` (bytes of JSON) | µs to record one delivery |',
);
console.log('|---:|---:|---:|---:|');
for (const rate of RATES) {
	const { total, bytes, microsPerDelivery } = stream(rate);
	console.log(
		`| ${rate} | ${total.toLocaleString('en')} | ${bytes.toLocaleString('en')} | ${microsPerDelivery.toFixed(0)} |`,
	);
}
console.log(
	`\nat a full memory, ${BURST} deliveries at once, each request loading the save before them: ${bursts(stream(EVENTS_PER_HOUR_COVERED), 50).toFixed(0)} µs to record one delivery; ${bursts(filledInOneHour(), 50).toFixed(0)} µs when the 3,000 ids arrived within one hour`,
);
