import { decideRepair } from '../../nodes/WorkforceManagementTrigger/verification/secretRepairDecision';

const EARLIER = 'whsec_0000000000000000000000000000000000000000000000aaaa';
const CURRENT = 'whsec_0000000000000000000000000000000000000000000000bbbb';
const OTHER = 'whsec_0000000000000000000000000000000000000000000000cccc';
const PREVIEW = 'whsec_…bbbb';

describe('decideRepair', () => {
	it('keeps a stored secret the preview shows, whatever this process rolled', () => {
		expect(
			decideRepair({ stored: CURRENT, storedVerifies: true, preview: PREVIEW, rolled: [OTHER] }),
		).toEqual({ action: 'keep' });
		expect(
			decideRepair({ stored: CURRENT, storedVerifies: false, preview: PREVIEW, rolled: [] }),
		).toEqual({ action: 'keep' });
	});

	it.each([
		['still verifies', true, EARLIER],
		['no longer verifies', false, EARLIER],
		['cannot be opened', false, undefined],
	])(
		'stores again the secret this process rolled when the stored one %s',
		(_label, verifies, stored) => {
			expect(
				decideRepair({
					stored,
					storedVerifies: verifies,
					preview: PREVIEW,
					rolled: [OTHER, CURRENT],
				}),
			).toEqual({ action: 'adopt', secret: CURRENT });
		},
	);

	it('waits, rolling nothing, while a stale stored secret still verifies and another process holds the current one', () => {
		expect(
			decideRepair({ stored: EARLIER, storedVerifies: true, preview: PREVIEW, rolled: [EARLIER] }),
		).toEqual({ action: 'wait' });
	});

	it.each([
		['no longer verifies', EARLIER],
		['cannot be opened', undefined],
	])(
		'rolls when the stored secret %s and this process holds nothing the preview shows',
		(_label, stored) => {
			expect(
				decideRepair({ stored, storedVerifies: false, preview: PREVIEW, rolled: [OTHER] }),
			).toEqual({
				action: 'roll',
			});
		},
	);

	it('trusts a stored secret when the preview cannot be read, and adopts the newest roll for an unusable one', () => {
		expect(
			decideRepair({ stored: EARLIER, storedVerifies: false, preview: undefined, rolled: [] }),
		).toEqual({ action: 'keep' });
		expect(
			decideRepair({
				stored: undefined,
				storedVerifies: false,
				preview: 'masked',
				rolled: [OTHER, CURRENT],
			}),
		).toEqual({ action: 'adopt', secret: CURRENT });
	});
});
