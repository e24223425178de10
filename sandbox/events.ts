import { isoDate, isoTimestamp } from './clock';
import type { Tenant } from './store';
import { exampleCast } from './world';

export interface CatalogEntry {
	type: string;
	description: string;
	module_gate: string;
}

/**
 * Every event type of the specification's event list. The spec shows the gate only for members; the
 * others are our choice (sandbox/README.md): one module per API group.
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

function round2(amount: number): number {
	return Math.round(amount * 100) / 100;
}

/**
 * Deep-merges `overrides` into an example payload: objects merge key by key, anything else
 * (arrays and null included) replaces.
 */
export function mergeIntoExample(
	example: Record<string, unknown>,
	overrides: Record<string, unknown>,
): Record<string, unknown> {
	const merged = { ...example };
	for (const [key, value] of Object.entries(overrides)) {
		const current = merged[key];
		const bothObjects = [current, value].every(
			(part) => part !== null && typeof part === 'object' && !Array.isArray(part),
		);
		merged[key] = bothObjects
			? mergeIntoExample(current as Record<string, unknown>, value as Record<string, unknown>)
			: value;
	}
	return merged;
}

/**
 * An example `data` object for any event type (for the test operation and the control
 * interface), about the records of the tenant's demo world (see world.ts): a timesheet names a
 * member and customer of that world and a site of that customer, and the invoice bills the
 * timesheets at the customer's billing rate. Member, customer and site payloads have the REST
 * shapes; shift, booking, timesheet, feedback, invoice and travel-expense payloads are examples
 * only (isInventedPayload), since the spec does not show them.
 */
export function examplePayload(
	type: string,
	nowMs: number,
	tenant: Tenant,
): Record<string, unknown> {
	const now = isoTimestamp(nowMs);
	const [family, action] = type.split('.');
	const { worker, colleague, newcomer, customer, site, id } = exampleCast(tenant, now);
	const billRate = customer.billing_rate ?? 40;
	const startsAt = nowMs - 8 * HOUR_MS;
	const shift = {
		id: id('shift'),
		customer_id: customer.id,
		site_id: site.id,
		title: 'Evening care assistant',
		status: 'open',
		starts_at: isoTimestamp(startsAt),
		ends_at: isoTimestamp(startsAt + 8 * HOUR_MS),
		positions: 2,
		filled_positions: 2,
		pay_rate: round2(billRate * 0.65),
		bill_rate: billRate,
		currency: 'USD',
		notes: null,
		created_at: now,
		updated_at: now,
	};
	// the two timesheets of the shift: the worker's (the timesheet.* example) and the colleague's
	const timesheets = [
		{ member: worker, hours: 7.5, breakMinutes: 30, id: id('timesheet/1') },
		{ member: colleague, hours: 6, breakMinutes: 0, id: id('timesheet/2') },
	].map((entry) => ({
		id: entry.id,
		shift_id: shift.id,
		member_id: entry.member.id,
		customer_id: customer.id,
		site_id: site.id,
		clock_in_at: isoTimestamp(nowMs - (entry.hours * 60 + entry.breakMinutes) * 60_000),
		clock_out_at: now,
		break_minutes: entry.breakMinutes,
		hours_worked: entry.hours,
		source: 'clock_out',
		created_at: now,
		updated_at: now,
	}));
	switch (family) {
		case 'member':
			if (action === 'created') return { ...newcomer, source: 'signup' };
			if (action === 'verified') return { ...newcomer, is_verified: true };
			if (action === 'deactivated') return { ...newcomer, is_active: false, status: 'inactive' };
			if (action === 'deleted') {
				return {
					id: newcomer.id,
					business_name: newcomer.business_name,
					display_name: newcomer.display_name,
					contact: newcomer.contact,
					deleted_at: now,
				};
			}
			return { ...newcomer, updated_at: now };
		case 'customer':
			return { ...customer, updated_at: now };
		case 'customer_location':
			return { ...site, updated_at: now };
		case 'shift':
			if (action === 'assigned') {
				return {
					...shift,
					filled_positions: 1,
					assignment: { member_id: worker.id, method: 'offer_accepted', assigned_at: now },
				};
			}
			if (action === 'completed') return { ...shift, status: 'completed' };
			if (action === 'cancelled')
				return { ...shift, status: 'cancelled', cancellation_reason: 'Customer request' };
			return { ...shift, filled_positions: 0 };
		case 'booking':
			return {
				id: id('booking'),
				customer_id: customer.id,
				site_id: site.id,
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
				...timesheets[0],
				status: {
					created: 'pending',
					approved: 'approved',
					disputed: 'disputed',
					voided: 'voided',
				}[action],
				dispute_reason: action === 'disputed' ? 'Hours do not match the sign-in sheet' : null,
			};
		case 'feedback':
			return {
				id: id('feedback'),
				shift_id: shift.id,
				customer_id: customer.id,
				member_id: worker.id,
				rating: 5,
				comment: 'Punctual and kind with the residents.',
				created_at: now,
			};
		case 'invoice': {
			const lineItems = timesheets.map((timesheet) => ({
				description: `${shift.title}, ${site.name}, ${timesheet.hours_worked} h`,
				quantity: timesheet.hours_worked,
				unit_price: billRate,
				amount: round2(timesheet.hours_worked * billRate),
				timesheet_id: timesheet.id,
			}));
			const subtotal = round2(lineItems.reduce((sum, line) => sum + line.amount, 0));
			return {
				id: id('invoice'),
				customer_id: customer.id,
				number: 'INV-2026-0042',
				status: { created: 'draft', sent: 'sent', paid: 'paid', voided: 'void' }[action],
				currency: 'USD',
				subtotal,
				tax: 0,
				total: subtotal,
				issue_date: isoDate(nowMs),
				due_date: isoDate(nowMs + 30 * 24 * HOUR_MS),
				line_items: lineItems,
				created_at: now,
				updated_at: now,
			};
		}
		case 'travel_expense':
			return {
				id: id('travel_expense'),
				member_id: worker.id,
				shift_id: shift.id,
				travel_date: isoDate(nowMs),
				distance_miles: 18.4,
				rate_per_mile: 0.67,
				amount: round2(18.4 * 0.67),
				currency: 'USD',
				notes: `Home to ${site.name} and back`,
				created_at: now,
			};
		default:
			throw new Error(`No example payload for event type ${type}`);
	}
}
