import { CLOCK_SKEW_MARGIN_SECONDS } from '../../nodes/shared/webhooks';
import {
	claimHolds,
	DELETION_WINDOW_SECONDS,
	deletionMayProceed,
	deletionSpan,
	deletionVerdict,
} from '../../nodes/WorkforceManagementTrigger/registration/deletionWindow';
import {
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	REQUEST_DEADLINE_MS,
} from '../../nodes/shared/transport';

const deletionAt = 1_796_000_010;
const mark = { token: '9c2f04aa', deletionAt };
const at = (time: number) => ({ sentAt: time, answeredAt: time });

describe('the deletion: its DELETE only within the window after its time', () => {
	it(`goes on when its read was answered up to ${DELETION_WINDOW_SECONDS} s after its time`, () => {
		expect(deletionMayProceed(deletionAt, deletionAt)).toBe(true);
		expect(deletionMayProceed(deletionAt, deletionAt + DELETION_WINDOW_SECONDS)).toBe(true);
	});

	it('leaves the endpoint alone when its read was answered later', () => {
		expect(deletionMayProceed(deletionAt, deletionAt + DELETION_WINDOW_SECONDS + 0.001)).toBe(
			false,
		);
	});
});

describe('the span in which a deletion pending elsewhere may remove the endpoint', () => {
	it('runs from its time less the clock margin to the last DELETE it may send, plus the margin', () => {
		const longestDeleteSeconds =
			(RATE_LIMIT_MAX_ATTEMPTS * REQUEST_DEADLINE_MS + RATE_LIMIT_MAX_TOTAL_WAIT_MS) / 1000;
		expect(deletionSpan(deletionAt)).toEqual({
			from: deletionAt - CLOCK_SKEW_MARGIN_SECONDS,
			until:
				deletionAt + DELETION_WINDOW_SECONDS + longestDeleteSeconds + CLOCK_SKEW_MARGIN_SECONDS,
		});
		expect(longestDeleteSeconds).toBe(210);
	});
});

describe('an activation claiming an endpoint whose deletion is pending in another process', () => {
	const { from, until } = deletionSpan(deletionAt);

	it('keeps a claim answered before the span: the deletion reads it', () => {
		expect(claimHolds(mark, at(deletionAt - 8))).toBe(true);
		expect(claimHolds(mark, { sentAt: from - 1, answeredAt: from - 0.001 })).toBe(true);
	});

	it('does not claim within the span: a DELETE may be in flight or coming', () => {
		expect(claimHolds(mark, at(from))).toBe(false);
		expect(claimHolds(mark, at(deletionAt))).toBe(false);
		expect(claimHolds(mark, at(deletionAt + DELETION_WINDOW_SECONDS + 30))).toBe(false);
		expect(claimHolds(mark, at(until))).toBe(false);
	});

	it('does not keep a claim sent before the span and answered within it', () => {
		expect(claimHolds(mark, { sentAt: from - 1, answeredAt: from + 0.5 })).toBe(false);
	});

	it('keeps a claim sent after the span: the deletion is done or gave up', () => {
		expect(claimHolds(mark, at(until + 0.001))).toBe(true);
		expect(claimHolds(mark, at(deletionAt + 86_400))).toBe(true);
	});

	it('keeps a claim on a mark without a time (as an earlier version wrote it), as before', () => {
		expect(claimHolds({ token: '9c2f04aa' }, at(deletionAt))).toBe(true);
	});
});

describe('deletionVerdict: what the pending deletion makes of the mark it finds', () => {
	const own = { token: 'aa11', deletionAt };
	const kept = (token: string, at?: number) => ({ kind: 'kept' as const, token, deletionAt: at });

	it('deletes on its own mark, and leaves an endpoint an activation kept under its token', () => {
		expect(deletionVerdict(own, { kind: 'retired', ...own })).toBe('delete');
		expect(deletionVerdict(own, kept('aa11', deletionAt))).toBe('claimed');
	});

	it('deletes when its mark is gone without a trace: only a writer that never saw it erases it', () => {
		expect(deletionVerdict(own, undefined)).toBe('delete');
	});

	it('leaves it to a later deactivation', () => {
		expect(
			deletionVerdict(own, { kind: 'retired', token: 'bb22', deletionAt: deletionAt + 5 }),
		).toBe('superseded');
	});

	it(`tells an older activation's record, put back over its mark, from a later one by ${CLOCK_SKEW_MARGIN_SECONDS} s`, () => {
		const earliest = deletionAt - CLOCK_SKEW_MARGIN_SECONDS;
		expect(deletionVerdict(own, kept('bb22', earliest - 1))).toBe('delete');
		expect(deletionVerdict(own, kept('bb22', earliest))).toBe('superseded');
		expect(deletionVerdict(own, kept('bb22', deletionAt + 60))).toBe('superseded');
		expect(deletionVerdict(own, kept('bb22'))).toBe('superseded');
	});
});
