/**
 * The times that keep a pending deletion (retirement.ts) from removing an endpoint an activation
 * in another process has claimed. The API has no conditional requests, so the deletion's read of
 * the mark and its DELETE are two requests, and a claim landing between them is not seen. Both
 * sides keep to the time the mark carries instead:
 *
 * - the deletion sends its DELETE only if its read was answered within `DELETION_WINDOW_SECONDS`
 *   of that time; later, it leaves the endpoint to the next activation;
 * - an activation adopts a marked endpoint only if its claim was answered before that time (the
 *   deletion's read then sees it), or if it starts after any DELETE the deletion may have sent
 *   has landed. In between, it registers a new endpoint.
 *
 * All times are epoch seconds, each read from its own process's clock (`nowSeconds`).
 */
import { LONGEST_WRITE_MS } from '../../shared/transport';
import {
	CLOCK_SKEW_MARGIN_SECONDS,
	type EndpointMark,
	type RetirementMark,
} from '../../shared/webhooks';

/** This process's clock, in epoch seconds: every time below is read from it. */
export function nowSeconds(): number {
	return Date.now() / 1000;
}

/** How long after its time a deletion's read may be answered for the deletion to go on. */
export const DELETION_WINDOW_SECONDS = 5;

/** Whether a deletion whose read of the mark was answered at `answeredAt` may send its DELETE. */
export function deletionMayProceed(deletionAt: number, answeredAt: number): boolean {
	return answeredAt <= deletionAt + DELETION_WINDOW_SECONDS;
}

/**
 * The span in which the deletion marked for `deletionAt` may remove the endpoint, as another
 * process's clock reads it: from its read (at `deletionAt` on the deleting process's clock) to
 * the end of a DELETE sent as late as `deletionMayProceed` allows.
 */
export function deletionSpan(deletionAt: number): { from: number; until: number } {
	return {
		from: deletionAt - CLOCK_SKEW_MARGIN_SECONDS,
		until:
			deletionAt + DELETION_WINDOW_SECONDS + LONGEST_WRITE_MS / 1000 + CLOCK_SKEW_MARGIN_SECONDS,
	};
}

/**
 * Whether an activation keeps an endpoint it claimed from a deletion pending in another process:
 * its claim was sent at `sentAt` and answered at `answeredAt` (to ask before claiming, pass the
 * same time twice). A mark without a time (an earlier version's) is adopted as before.
 */
export function claimHolds(
	mark: RetirementMark,
	claim: { sentAt: number; answeredAt: number },
): boolean {
	if (mark.deletionAt === undefined) return true;
	const span = deletionSpan(mark.deletionAt);
	return claim.answeredAt < span.from || claim.sentAt > span.until;
}

/**
 * What a pending deletion finds when it reads its endpoint, given the mark it wrote:
 * - `delete`: its own mark is there; or none is, or an older activation's `kept` is (a writer that
 *   read the description before the mark landed wrote it back without the mark: only an activation
 *   removes a mark on purpose, and it leaves `kept` with the deletion's token);
 * - `claimed`: an activation kept the endpoint (`kept` with this deletion's token);
 * - `superseded`: a later deactivation's mark, or a `kept` too close in time to tell which came
 *   first: left to that one, or to the next activation.
 */
export type DeletionVerdict = 'delete' | 'claimed' | 'superseded';

export function deletionVerdict(
	own: { token: string; deletionAt: number },
	found: EndpointMark | undefined,
): DeletionVerdict {
	if (found === undefined) return 'delete';
	if (found.token === own.token) return found.kind === 'retired' ? 'delete' : 'claimed';
	if (found.kind === 'retired') return 'superseded';
	const keptEarlier =
		found.deletionAt !== undefined && found.deletionAt < own.deletionAt - CLOCK_SKEW_MARGIN_SECONDS;
	return keptEarlier ? 'delete' : 'superseded';
}
