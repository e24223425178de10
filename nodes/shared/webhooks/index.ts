/**
 * The API's webhooks as a ledger that the trigger and the Recover Missed Events operation share:
 * the endpoint and delivery calls, the format of an endpoint's description, the claim that lets one
 * recovery run at a time, the walk of the deliveries list, and the choice of what to redeliver.
 * Both nodes import this door only; neither keeps a rule of its own about what is written here.
 *
 * What the API holds, which every n8n process reads alike: each endpoint (URL, events, enabled,
 * the disabled reason, a preview of the signing secret) and its description, which carries three
 * fields (description.ts): the workflow's name and id, a recovery's claim, and a deactivation's
 * mark; and each delivery with its status and `redelivery_of`, back over the API's retention.
 * What the trigger alone holds: its static data (endpoint id, sealed secret, the duplicate memory
 * of envelope ids it ran) and each process's memory. So which events to redeliver is decided from
 * the API's records, and the duplicate memory only sets apart what the trigger already ran.
 *
 * Clocks: no rule assumes a clock moves only forward. A time written by one process and read by
 * another (a claim's end, a deletion's time) is judged with `CLOCK_SKEW_MARGIN_SECONDS` to spare,
 * and a claim dated further ahead than any claim lives is taken for a clock that ran ahead.
 * The API offers no conditional write: each description write reads first and changes one field
 * (descriptionEdit.ts), and each rule says how it survives a write landing in between
 * (docs/webhooks.md, "Coordination rules").
 */
export * as webhookEndpoints from './endpoints';
export * as webhookDeliveries from './deliveries';
export {
	describedWorkflowId,
	describesWorkflow,
	type EndpointMark,
	endpointDescription,
	endpointMarkOf,
	MAX_DESCRIPTION_LENGTH,
	readableDescription,
	type RecoveryClaim,
	recoveryClaimOf,
	type RetirementMark,
	retirementMarkOf,
	withMark,
	withoutRecoveryClaim,
	withRecoveryClaim,
} from './description';
export { CLOCK_SKEW_MARGIN_SECONDS, currentDescription, editDescription } from './descriptionEdit';
export { acquireRecoveryLease, claimHeld, claimState, RECOVERY_LEASE } from './claim';
export { LEDGER_READ_BUDGET } from './ledgerRead';
export {
	type ListedDelivery,
	listedDeliveryOf,
	planRecovery,
	RECOVERY_BOUNDS,
	type RecoveryInput,
	type RecoveryPlan,
} from './missedEvents';
export {
	type EndpointState,
	foundDisabledText,
	recoverDeadDeliveries,
	type RecoveryOptions,
	type RecoveryOutcome,
	redeliveredBy,
	unreadShortfall,
} from './recovery';
