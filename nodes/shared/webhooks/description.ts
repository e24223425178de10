/**
 * The description the trigger gives the webhook endpoints it registers: the workflow's name, for
 * people reading the endpoint list, and the workflow's id, by which the trigger finds its own
 * endpoints again after its static data is lost.
 *
 * It is the one field the API keeps that every n8n process can read and write, so it carries two
 * more fields: a recovery's claim before the text (claim.ts) and a mark after the workflow
 * id, `retired` or `kept` (registration/retirement.ts). Every reader here sees through both. Each
 * writer changes one field on a fresh read (descriptionEdit.ts): `[claim] text (n8n workflow id; mark)`.
 */

/**
 * The API names no maximum length for a description (api-spec: "Maximum string lengths: not
 * shown"); 200 characters keep a long workflow name readable in any list and leave room below the
 * limits such fields usually have.
 */
export const MAX_DESCRIPTION_LENGTH = 200;

function ownerMarker(workflowId: string): string {
	return `n8n workflow ${workflowId}`;
}

/**
 * The mark after the workflow id, one at a time:
 * - `; retired <token> <epoch s>`: a deactivation's. The endpoint's deletion is pending; the token
 *   names that one deletion, and the time is when it runs (an earlier version's mark has none).
 * - `; kept <token> <epoch s>`: an activation in another process adopted the endpoint that
 *   retirement had marked. The pending deletion reads it as "claimed"; a mark that merely vanished
 *   was erased by a writer that had not seen it (registration/retirement.ts). An activation in the
 *   process that retired the endpoint stops that deletion itself and writes no mark.
 */
const MARK = /; (retired|kept) ([0-9a-f]+)(?: ([0-9]{1,12}))?(\)?)$/;

/** A deactivation's mark: which deletion is pending, and when it runs, if the mark says. */
export interface RetirementMark {
	token: string;
	/** Epoch seconds. */
	deletionAt?: number;
}

export interface EndpointMark extends RetirementMark {
	kind: 'retired' | 'kept';
}

function markText(mark: EndpointMark): string {
	const at = mark.deletionAt === undefined ? '' : ` ${mark.deletionAt}`;
	return `; ${mark.kind} ${mark.token}${at}`;
}

function retirementMarker(mark: RetirementMark): string {
	return markText({ kind: 'retired', ...mark });
}

/**
 * A recovery of missed events under way holds the endpoint by a prefix of the description,
 * `[recovering missed events: <token> until <ISO time>] `. The rest stays as it was.
 */
const RECOVERY_CLAIM = /^\[recovering missed events: ([0-9a-f]+) until ([^\]]+)\] /;

/**
 * `Payroll sync (n8n workflow UhQysxdh1I3z9tfP)`, the name cut with "…" to fit the bound; with a
 * retirement mark, `Payroll sync (n8n workflow UhQysxdh1I3z9tfP; retired 9c2f… 1796000010)`.
 */
export function endpointDescription(
	workflowId: string,
	workflowName: string,
	retirement?: RetirementMark,
): string {
	const marker =
		retirement === undefined
			? ownerMarker(workflowId)
			: `${ownerMarker(workflowId)}${retirementMarker(retirement)}`;
	const name = workflowName.replace(/\s+/g, ' ').trim();
	if (!name) return marker;
	const room = MAX_DESCRIPTION_LENGTH - marker.length - ' ()'.length;
	// by code points, so an emoji in the name is never cut in half
	const characters = Array.from(name);
	const fitted =
		characters.length > room
			? `${characters
					.slice(0, room - 1)
					.join('')
					.trimEnd()}…`
			: name;
	return `${fitted} (${marker})`;
}

/** The description as the trigger wrote it at activation: without a claim or a mark. */
function unmarked(description: string | null): string {
	return (withoutRecoveryClaim(description) ?? '').replace(MARK, '$4');
}

/**
 * Whether the description says the endpoint belongs to this workflow: the current form, or the
 * `n8n workflow <id> · <node name>` of version 0.1.0, so endpoints registered by it are still found.
 */
export function describesWorkflow(markedDescription: string | null, workflowId: string): boolean {
	const description = unmarked(markedDescription);
	if (!description) return false;
	const marker = ownerMarker(workflowId);
	return (
		description === marker ||
		description.endsWith(` (${marker})`) ||
		description.startsWith(`${marker} · `)
	);
}

/** The description without the workflow id the trigger appends: what a person wants to read. */
export function readableDescription(markedDescription: string): string {
	return (
		/^(.+) \(n8n workflow [^\s()]+\)$/s.exec(unmarked(markedDescription))?.[1] ??
		withoutRecoveryClaim(markedDescription) ??
		''
	);
}

/** The id of the n8n workflow whose trigger registered an endpoint with this description, if any. */
export function describedWorkflowId(markedDescription: string | null): string | undefined {
	const description = unmarked(markedDescription);
	return (
		/(?:^| \()n8n workflow ([^\s()]+)\)?$/.exec(description)?.[1] ??
		/^n8n workflow ([^\s()]+) · /.exec(description)?.[1]
	);
}

/** The mark after the workflow id, retired or kept, if there is one. */
export function endpointMarkOf(description: string | null): EndpointMark | undefined {
	const match = MARK.exec(description ?? '');
	if (!match) return undefined;
	const kind = match[1] as EndpointMark['kind'];
	return match[3] === undefined
		? { kind, token: match[2] }
		: { kind, token: match[2], deletionAt: Number(match[3]) };
}

/**
 * `description` with its mark replaced by `mark` (or removed), the claim and the rest as they are:
 * the one field a deactivation or an activation changes.
 */
export function withMark(description: string | null, mark: EndpointMark | undefined): string {
	const claim = recoveryClaimOf(description);
	const text = unmarked(description);
	const marked =
		mark === undefined
			? text
			: text.endsWith(')')
				? `${text.slice(0, -1)}${markText(mark)})`
				: `${text}${markText(mark)}`;
	return claim === undefined ? marked : withRecoveryClaim(marked, claim);
}

/** The deletion pending on an endpoint with this description, if one is. */
export function retirementMarkOf(description: string | null): RetirementMark | undefined {
	const mark = endpointMarkOf(description);
	if (mark?.kind !== 'retired') return undefined;
	return mark.deletionAt === undefined
		? { token: mark.token }
		: { token: mark.token, deletionAt: mark.deletionAt };
}

/** A recovery's hold on the endpoint (claim.ts). */
export interface RecoveryClaim {
	token: string;
	untilMs: number;
}

export function recoveryClaimOf(description: string | null): RecoveryClaim | undefined {
	const match = RECOVERY_CLAIM.exec(description ?? '');
	if (!match) return undefined;
	const untilMs = Date.parse(match[2]);
	return Number.isNaN(untilMs) ? undefined : { token: match[1], untilMs };
}

export function withoutRecoveryClaim(description: string | null): string | null {
	return description === null ? null : description.replace(RECOVERY_CLAIM, '');
}

export function withRecoveryClaim(description: string | null, claim: RecoveryClaim): string {
	const until = new Date(claim.untilMs).toISOString();
	return `[recovering missed events: ${claim.token} until ${until}] ${withoutRecoveryClaim(description) ?? ''}`;
}
