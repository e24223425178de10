import {
	claimHeld,
	claimState,
	CLOCK_SKEW_MARGIN_SECONDS,
	endpointDescription,
	RECOVERY_LEASE,
	withMark,
	withRecoveryClaim,
} from '../../nodes/shared/webhooks';

const nowMs = Date.parse('2026-12-05T10:00:00.000Z');
const claimUntil = (untilMs: number) => ({ token: 'c1a1', untilMs });
const lifetimeMs = RECOVERY_LEASE.ttlSeconds * 1000;
const marginMs = CLOCK_SKEW_MARGIN_SECONDS * 1000;

describe("a recovery's claim, judged by the reader's own clock", () => {
	it('is live from now until its lifetime plus the clocks’ margin ahead', () => {
		expect(claimState(claimUntil(nowMs + 1), nowMs)).toBe('live');
		expect(claimState(claimUntil(nowMs + lifetimeMs), nowMs)).toBe('live');
		expect(claimState(claimUntil(nowMs + lifetimeMs + marginMs), nowMs)).toBe('live');
	});

	it('is stale just beyond that: left by a process whose clock ran ahead', () => {
		expect(claimState(claimUntil(nowMs + lifetimeMs + marginMs + 1), nowMs)).toBe('stale');
		expect(claimState(claimUntil(Date.parse('9999-12-31T00:00:00.000Z')), nowMs)).toBe('stale');
	});

	it('has expired once its time has come', () => {
		expect(claimState(claimUntil(nowMs), nowMs)).toBe('expired');
		expect(claimState(claimUntil(nowMs - 1), nowMs)).toBe('expired');
		expect(claimState(undefined, nowMs)).toBe('none');
	});
});

describe('claimHeld: whether a recovery may redeliver the next event', () => {
	const description = endpointDescription('wf1', 'Payroll sync');
	const claimed = withRecoveryClaim(description, claimUntil(nowMs + lifetimeMs));

	it('holds while the claim is this recovery’s and live', () => {
		expect(claimHeld(claimed, 'c1a1', nowMs)).toBe(true);
		expect(claimHeld(claimed, 'other', nowMs)).toBe(false);
		expect(claimHeld(claimed, 'c1a1', nowMs + lifetimeMs)).toBe(false);
		expect(claimHeld(description, 'c1a1', nowMs)).toBe(false);
	});

	it('yields to a deactivation: not with a retirement mark, still with an activation’s record', () => {
		const retired = withMark(claimed, { kind: 'retired', token: 'ab12', deletionAt: 1 });
		expect(claimHeld(retired, 'c1a1', nowMs)).toBe(false);
		const kept = withMark(claimed, { kind: 'kept', token: 'ab12', deletionAt: 1 });
		expect(claimHeld(kept, 'c1a1', nowMs)).toBe(true);
	});
});
