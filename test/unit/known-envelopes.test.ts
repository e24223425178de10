import { encodeMemory, recordEnvelope } from '../../nodes/WorkforceManagementTrigger/envelopeMemory';
import { knownEnvelopeCheck } from '../../nodes/WorkforceManagementTrigger/knownEnvelopes';

const NOW_SECONDS = 1_795_000_000;

describe('knownEnvelopeCheck', () => {
	it('knows the ids the duplicate memory in static data holds, however old', () => {
		const { memory } = recordEnvelope([], 'evt_ran', NOW_SECONDS - 200 * 3600);
		const isKnown = knownEnvelopeCheck({ seenEnvelopes: encodeMemory(memory) });
		expect(isKnown('evt_ran')).toBe(true);
		expect(isKnown('evt_missed')).toBe(false);
	});

	it('knows nothing without a memory, or with one it cannot read', () => {
		expect(knownEnvelopeCheck({})('evt_ran')).toBe(false);
		expect(knownEnvelopeCheck({ seenEnvelopes: { x: 'not base64 of hashes' } })('evt_ran')).toBe(
			false,
		);
	});
});
