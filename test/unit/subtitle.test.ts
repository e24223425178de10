import { operationSubtitle, resources } from '../../nodes/WorkforceManagement/actions/resources';

describe('the action node subtitle', () => {
	const subtitle = operationSubtitle();
	const actions = JSON.parse(/^=\{\{ (\{.*\})\[/.exec(subtitle)![1]) as Record<string, string>;

	it('names the action of each of the 25 operations, keyed by resource and operation', () => {
		const registered = Object.entries(resources).flatMap(([resource, { operations }]) =>
			Object.keys(operations).map((operation) => `${resource}.${operation}`),
		);
		expect(registered).toHaveLength(25);
		expect(Object.keys(actions).sort()).toEqual(registered.sort());
		expect(actions['member.get']).toBe('Get a member');
		expect(actions['webhookEndpoint.rollSecret']).toMatch(/^Roll /);
	});

	it('looks the action up from the picked resource and operation', () => {
		expect(subtitle.endsWith('[$parameter["resource"] + "." + $parameter["operation"]] }}')).toBe(
			true,
		);
	});
});
