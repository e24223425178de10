/**
 * The description the trigger gives the webhook endpoints it registers: the workflow's name, for
 * people reading the endpoint list, and the workflow's id, by which the trigger finds its own
 * endpoints again after its static data is lost.
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

/** `Payroll sync (n8n workflow UhQysxdh1I3z9tfP)`, the name cut with "…" to fit the bound. */
export function endpointDescription(workflowId: string, workflowName: string): string {
	const marker = ownerMarker(workflowId);
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

/**
 * Whether the description says the endpoint belongs to this workflow: the current form, or the
 * `n8n workflow <id> · <node name>` of version 0.1.0, so endpoints registered by it are still found.
 */
export function describesWorkflow(claimedDescription: string | null, workflowId: string): boolean {
	const description = withoutRecoveryClaim(claimedDescription);
	if (!description) return false;
	const marker = ownerMarker(workflowId);
	return (
		description === marker ||
		description.endsWith(` (${marker})`) ||
		description.startsWith(`${marker} · `)
	);
}

/** The description without the workflow id the trigger appends: what a person wants to read. */
export function readableDescription(claimedDescription: string): string {
	const description = withoutRecoveryClaim(claimedDescription) ?? '';
	return /^(.+) \(n8n workflow [^\s()]+\)$/s.exec(description)?.[1] ?? description;
}

/**
 * A recovery of missed events under way holds the endpoint (recoveryLease.ts) by a prefix of its
 * description, `[recovering missed events: <token> until <ISO time>] `, the one field the API
 * keeps that every n8n process can read and write. The rest of the description stays as it was.
 */
export interface RecoveryClaim {
	token: string;
	untilMs: number;
}

const RECOVERY_CLAIM = /^\[recovering missed events: ([0-9a-f]+) until ([^\]]+)\] /;

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
