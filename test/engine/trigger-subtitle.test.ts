/**
 * The trigger's subtitle is an expression (n8n renders it in the editor, under the node's name)
 * that titles the chosen events. It must agree with `eventTitle()`, which titles the same events
 * in the Event dropdown: rendered here through n8n's own expression evaluator.
 */
import { eventTitle } from '../../nodes/shared/eventCatalog';
import { TRIGGER_NODE_TYPE } from '../../harness/constants';
import { createWorkflow, nodeTypes } from '../support/engine/harness';
import { SPEC_EVENT_TYPES } from '../support/spec-event-types';

function renderedSubtitle(events: string[]): unknown {
	const { workflow, node } = createWorkflow({
		type: TRIGGER_NODE_TYPE,
		name: 'Workforce Management Trigger',
		parameters: { events },
	});
	const { subtitle } = nodeTypes.getByNameAndVersion(TRIGGER_NODE_TYPE).description;
	return workflow.expression.getSimpleParameterValue(node, subtitle, 'internal', {});
}

describe('the trigger subtitle', () => {
	it.each(SPEC_EVENT_TYPES.map((type) => [type]))('titles %s as eventTitle() does', (type) => {
		expect(renderedSubtitle([type])).toBe(eventTitle(type));
	});

	it('joins several events with commas, in the order chosen', () => {
		const events = ['timesheet.approved', 'customer_location.created', 'booking.status_changed'];
		expect(renderedSubtitle(events)).toBe(events.map(eventTitle).join(', '));
	});

	it('says All Events for the wildcard, whatever else is chosen', () => {
		expect(renderedSubtitle(['*'])).toBe('All Events');
		expect(renderedSubtitle(['member.created', '*'])).toBe('All Events');
	});
});
