import { randomUUID } from 'node:crypto';

import { isoDate, isoTimestamp } from './clock';
import { newCustomer, newMember, newSite } from './resources';

export interface CatalogEntry {
	type: string;
	description: string;
	module_gate: string;
}

/**
 * All 26 event types of the spec. The spec shows the gate only for members; the others are our
 * choice (README): one module per API group.
 */
export const EVENT_CATALOG: readonly CatalogEntry[] = [
	[
		'member.created',
		'members',
		'A member was created by public signup, portal invitation, hiring pipeline or the API',
	],
	[
		'member.updated',
		'members',
		'A member profile changed (contact details, capacity, status fields); availability-calendar changes do not fire it',
	],
	['member.verified', 'members', 'is_verified became true, typically via the verify operation'],
	['member.deactivated', 'members', 'is_active became false, by an admin, the API or self-service'],
	[
		'member.deleted',
		'members',
		'A member row was permanently removed; payload is a pre-delete snapshot of identifying fields',
	],
	['customer.created', 'customers', 'A customer was created'],
	['customer.updated', 'customers', 'A customer changed'],
	['customer_location.created', 'customers', 'A site was created'],
	[
		'customer_location.updated',
		'customers',
		'A site changed, including activation and deactivation',
	],
	['shift.created', 'shifts', 'A shift was created (drafts included)'],
	[
		'shift.updated',
		'shifts',
		'A shift changed: schedule, pay, positions, or fill-state changes from cancelled assignments',
	],
	['shift.assigned', 'shifts', 'A member was assigned, accepted an offer or claimed an open call'],
	['shift.completed', 'shifts', 'A shift reached completed status'],
	['shift.cancelled', 'shifts', 'A shift was cancelled'],
	['booking.created', 'bookings', 'A booking request was created'],
	[
		'booking.status_changed',
		'bookings',
		'A booking moved between statuses (approved, active, completed, cancelled and others)',
	],
	[
		'timesheet.created',
		'timesheets',
		'A timesheet was generated for a shift assignment: at clock-out, by the missing-clock-out sweep, or manually by an admin',
	],
	[
		'timesheet.approved',
		'timesheets',
		'A timesheet was approved by the customer, automatically, or by an org admin; approval triggers invoice generation',
	],
	['timesheet.disputed', 'timesheets', 'A customer disputed a pending timesheet'],
	['timesheet.voided', 'timesheets', 'An org admin voided a timesheet before approval'],
	[
		'feedback.created',
		'shifts',
		'A customer submitted end-of-shift feedback (rating 1 to 5 plus optional comment)',
	],
	[
		'invoice.created',
		'invoices',
		'An invoice was generated from approved timesheets (draft unless auto-send is enabled)',
	],
	['invoice.sent', 'invoices', 'An invoice was finalized and sent'],
	['invoice.paid', 'invoices', 'An invoice was marked paid manually; no payment processor exists'],
	[
		'invoice.voided',
		'invoices',
		'An invoice was voided; posted journal entries were reversed and source items can be re-invoiced',
	],
	['travel_expense.submitted', 'timesheets', 'A travel (mileage) expense was recorded'],
].map(([type, module_gate, description]) => ({ type, description, module_gate }));

export const EVENT_TYPES: readonly string[] = EVENT_CATALOG.map((entry) => entry.type);

/** Event types whose payload shape the spec does not show: their examples are our invention. */
export function isInventedPayload(type: string): boolean {
	return !/^(member|customer|customer_location)\./.test(type);
}

const HOUR_MS = 3_600_000;

/**
 * An example `data` object for any event type (for the test operation and the control
 * interface). Member, customer and site payloads have the REST shapes; the others are
 * examples only, since the spec does not show them.
 */
export function examplePayload(type: string, nowMs: number): object {
	const now = isoTimestamp(nowMs);
	const [family, action] = type.split('.');
	const member = newMember(
		{
			business_name: 'Riverside Care Services',
			display_name: 'Dana Rivers',
			capacity: 3,
			contact: { email: 'dana@riverside.example', phone: '+1 555 0100' },
		},
		now,
	);
	const customerId = randomUUID();
	const siteId = randomUUID();
	const shiftId = randomUUID();
	const startsAt = nowMs + 24 * HOUR_MS;
	const shift = {
		id: shiftId,
		customer_id: customerId,
		site_id: siteId,
		title: 'Evening care assistant',
		status: 'open',
		starts_at: isoTimestamp(startsAt),
		ends_at: isoTimestamp(startsAt + 8 * HOUR_MS),
		positions: 2,
		filled_positions: 0,
		pay_rate: 24.5,
		bill_rate: 38,
		currency: 'USD',
		notes: null,
		created_at: now,
		updated_at: now,
	};
	switch (family) {
		case 'member':
			if (action === 'created') return { ...member, source: 'signup' };
			if (action === 'verified') return { ...member, is_verified: true };
			if (action === 'deactivated') return { ...member, is_active: false, status: 'inactive' };
			if (action === 'deleted') {
				return {
					id: member.id,
					business_name: member.business_name,
					display_name: member.display_name,
					contact: member.contact,
					deleted_at: now,
				};
			}
			return { ...member, status: 'active' };
		case 'customer':
			return newCustomer(
				{
					name: 'Northwind Health',
					contact_name: 'Sam Lee',
					contact_email: 'sam@northwind.example',
					billing_rate: 42,
				},
				now,
			);
		case 'customer_location':
			return newSite(
				{ customer_id: customerId, name: 'Northwind Clinic East', orientation_required: true },
				now,
			);
		case 'shift':
			if (action === 'assigned') {
				return {
					...shift,
					filled_positions: 1,
					assignment: { member_id: member.id, method: 'offer_accepted', assigned_at: now },
				};
			}
			if (action === 'completed') return { ...shift, status: 'completed', filled_positions: 2 };
			if (action === 'cancelled')
				return { ...shift, status: 'cancelled', cancellation_reason: 'Customer request' };
			return shift;
		case 'booking':
			return {
				id: randomUUID(),
				customer_id: customerId,
				site_id: siteId,
				status: action === 'status_changed' ? 'approved' : 'requested',
				previous_status: action === 'status_changed' ? 'requested' : null,
				requested_positions: 2,
				starts_at: shift.starts_at,
				ends_at: shift.ends_at,
				notes: 'Two assistants for the evening round',
				created_at: now,
				updated_at: now,
			};
		case 'timesheet':
			return {
				id: randomUUID(),
				shift_id: shiftId,
				member_id: member.id,
				customer_id: customerId,
				status: {
					created: 'pending',
					approved: 'approved',
					disputed: 'disputed',
					voided: 'voided',
				}[action],
				clock_in_at: isoTimestamp(nowMs - 8 * HOUR_MS),
				clock_out_at: now,
				break_minutes: 30,
				hours_worked: 7.5,
				source: 'clock_out',
				dispute_reason: action === 'disputed' ? 'Hours do not match the sign-in sheet' : null,
				created_at: now,
				updated_at: now,
			};
		case 'feedback':
			return {
				id: randomUUID(),
				shift_id: shiftId,
				customer_id: customerId,
				member_id: member.id,
				rating: 5,
				comment: 'Punctual and kind with the residents.',
				created_at: now,
			};
		case 'invoice':
			return {
				id: randomUUID(),
				customer_id: customerId,
				number: 'INV-2026-0042',
				status: { created: 'draft', sent: 'sent', paid: 'paid', voided: 'void' }[action],
				currency: 'USD',
				subtotal: 570,
				tax: 0,
				total: 570,
				issue_date: isoDate(nowMs),
				due_date: isoDate(nowMs + 30 * 24 * HOUR_MS),
				line_items: Array.from({ length: 2 }, () => ({
					description: 'Evening care assistant, 7.5 h',
					quantity: 7.5,
					unit_price: 38,
					amount: 285,
					timesheet_id: randomUUID(),
				})),
				created_at: now,
				updated_at: now,
			};
		case 'travel_expense':
			return {
				id: randomUUID(),
				member_id: member.id,
				shift_id: shiftId,
				travel_date: isoDate(nowMs),
				distance_miles: 18.4,
				rate_per_mile: 0.67,
				amount: 12.33,
				currency: 'USD',
				notes: 'Home to Northwind Clinic East and back',
				created_at: now,
			};
		default:
			throw new Error(`No example payload for event type ${type}`);
	}
}
