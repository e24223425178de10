import { BoundedMap } from '../../nodes/WorkforceManagementTrigger/boundedMap';

describe('BoundedMap', () => {
	it('drops the entry written longest ago once full; writing an entry again makes it the newest', () => {
		const map = new BoundedMap<string, number>(2);
		map.set('a', 1).set('b', 2).set('a', 3).set('c', 4);
		expect([...map.entries()]).toEqual([
			['a', 3],
			['c', 4],
		]);
	});
});
