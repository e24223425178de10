import { eventTitle } from '../../nodes/shared/eventCatalog';
import { SPEC_EVENT_TYPES } from '../support/spec-event-types';

describe('eventTitle', () => {
	it.each([
		['member.created', 'Member Created'],
		['timesheet.approved', 'Timesheet Approved'],
		['booking.status_changed', 'Booking Status Changed'],
		['travel_expense.submitted', 'Travel Expense Submitted'],
		['customer_location.created', 'Site Created'],
		['customer.updated', 'Customer Updated'],
	])('titles %s as "%s"', (type, title) => expect(eventTitle(type)).toBe(title));

	it(`gives each of the ${SPEC_EVENT_TYPES.length} event types of the specification a title of its own`, () => {
		const titles = SPEC_EVENT_TYPES.map(eventTitle);
		expect(new Set(titles).size).toBe(SPEC_EVENT_TYPES.length);
		for (const title of titles) expect(title).toMatch(/^([A-Z][a-z]+ ?)+$/);
	});
});
