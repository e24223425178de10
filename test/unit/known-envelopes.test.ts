import {
	ENVELOPE_MEMORY_LIMITS,
	recordEnvelope,
} from '../../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import { encodeMemory } from '../../nodes/WorkforceManagementTrigger/duplicates/storedMemory';
import { knownEnvelopes } from '../../nodes/WorkforceManagementTrigger/recovery/knownEnvelopes';

const NOW_SECONDS = 1_795_000_000;
const HOUR = 3600;

function storedWith(eventId: string, acceptedSecondsAgo: number) {
	const { memory } = recordEnvelope([], eventId, NOW_SECONDS - acceptedSecondsAgo);
	return { seenEnvelopes: encodeMemory(memory) };
}

describe('knownEnvelopes', () => {
	it('knows the ids the duplicate memory in static data holds, however old', () => {
		const known = knownEnvelopes(storedWith('evt_ran', 200 * HOUR), NOW_SECONDS);
		expect(known.isKnown('evt_ran')).toBe(true);
		expect(known.isKnown('evt_missed')).toBe(false);
	});

	it('confirms as a duplicate only an id the memory keeps for at least another hour', () => {
		const lastSafe = (ENVELOPE_MEMORY_LIMITS.windowHours - 2) * HOUR;
		const tooOld = (ENVELOPE_MEMORY_LIMITS.windowHours - 1) * HOUR;
		expect(
			knownEnvelopes(storedWith('evt_a', lastSafe), NOW_SECONDS).confirmsAsDuplicate('evt_a'),
		).toBe(true);
		expect(
			knownEnvelopes(storedWith('evt_a', tooOld), NOW_SECONDS).confirmsAsDuplicate('evt_a'),
		).toBe(false);
		expect(knownEnvelopes(storedWith('evt_a', 0), NOW_SECONDS).confirmsAsDuplicate('evt_b')).toBe(
			false,
		);
	});

	it('knows nothing without a memory, or with one it cannot read', () => {
		expect(knownEnvelopes({}, NOW_SECONDS).isKnown('evt_ran')).toBe(false);
		const unreadable = { seenEnvelopes: { x: 'not base64 of hashes' } };
		expect(knownEnvelopes(unreadable, NOW_SECONDS).isKnown('evt_ran')).toBe(false);
	});
});
