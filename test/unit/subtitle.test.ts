import type { INodePropertyOptions } from 'n8n-workflow';

import { operationSubtitle, resources } from '../../nodes/WorkforceManagement/actions/resources';

const registered = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.keys(operations).map((operation) => `${resource}.${operation}`),
);

describe('the operation registry', () => {
	it.each(Object.entries(resources))(
		"offers %s's operations in an Operation dropdown shown for that resource only",
		(name, resource) => {
			const selector = resource.description.find((property) => property.name === 'operation');
			expect(selector?.displayOptions).toEqual({ show: { resource: [name] } });
			const values = (selector?.options as INodePropertyOptions[]).map((option) => option.value);
			expect(values.sort()).toEqual(Object.keys(resource.operations).sort());
		},
	);
});

describe('the action node subtitle', () => {
	const subtitle = operationSubtitle();
	const actions = JSON.parse(/^=\{\{ (\{.*\})\[/.exec(subtitle)![1]) as Record<string, string>;

	it('names the action of every registered operation, keyed by resource and operation', () => {
		expect(registered.length).toBeGreaterThan(Object.keys(resources).length);
		expect(Object.keys(actions).sort()).toEqual([...registered].sort());
		expect(actions['member.get']).toBe('Get a member');
		expect(actions['webhookEndpoint.rollSecret']).toMatch(/^Roll /);
	});

	it('looks the action up from the picked resource and operation', () => {
		expect(subtitle.endsWith('[$parameter["resource"] + "." + $parameter["operation"]] }}')).toBe(
			true,
		);
	});
});
