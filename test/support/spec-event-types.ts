/**
 * Every event type of the API specification, in the order it lists them, written out here rather than
 * taken from the sandbox's catalog so that tests compare the catalog with the specification.
 */
export const SPEC_EVENT_TYPES: readonly string[] = [
	'member.created',
	'member.updated',
	'member.verified',
	'member.deactivated',
	'member.deleted',
	'customer.created',
	'customer.updated',
	'customer_location.created',
	'customer_location.updated',
	'shift.created',
	'shift.updated',
	'shift.assigned',
	'shift.completed',
	'shift.cancelled',
	'booking.created',
	'booking.status_changed',
	'timesheet.created',
	'timesheet.approved',
	'timesheet.disputed',
	'timesheet.voided',
	'feedback.created',
	'invoice.created',
	'invoice.sent',
	'invoice.paid',
	'invoice.voided',
	'travel_expense.submitted',
];

/** The event types of the members and customers modules (Acme's in the default config), in order. */
export const MEMBERS_AND_CUSTOMERS_EVENT_TYPES: readonly string[] = SPEC_EVENT_TYPES.filter(
	(type) => /^(member|customer|customer_location)\./.test(type),
);
