/**
 * The pages and time that the walks of a list given one budget may spend together (the recovery
 * reads its deliveries list twice on one budget, the first time on half of it).
 */
import { PageBudget } from '../../nodes/shared/transport';

const START_MS = Date.parse('2025-03-01T12:00:00Z');

beforeEach(() => jest.useFakeTimers({ now: START_MS }));
afterEach(() => jest.useRealTimers());

function spend(budget: PageBudget, pages: number): void {
	for (let page = 0; page < pages; page++) budget.spendPage();
}

describe('PageBudget', () => {
	it('refuses the page after its last one', () => {
		const budget = PageBudget.of(3, 60_000);

		spend(budget, 2);
		expect(budget.refusal()).toBeUndefined();
		spend(budget, 1);
		expect(budget.refusal()).toBe('page_limit');
	});

	it('refuses any page once its time is up, not before', () => {
		const budget = PageBudget.of(3, 60_000);

		jest.setSystemTime(START_MS + 59_999);
		expect(budget.refusal()).toBeUndefined();
		jest.setSystemTime(START_MS + 60_000);
		expect(budget.refusal()).toBe('deadline');
	});

	it('gives half of the pages left; what the half spends, the whole has spent', () => {
		const whole = PageBudget.of(5, 60_000);
		spend(whole, 1);
		const half = whole.half();

		spend(half, 2);
		expect(half.refusal()).toBe('page_limit');
		expect(whole.refusal()).toBeUndefined();
		spend(whole, 1);
		expect(whole.refusal()).toBeUndefined();
		spend(whole, 1);
		expect(whole.refusal()).toBe('page_limit');
	});

	it('gives half of the time left: the half ends midway, the whole at its own end', () => {
		const whole = PageBudget.of(200, 120_000);
		jest.setSystemTime(START_MS + 20_000);
		const half = whole.half();

		jest.setSystemTime(START_MS + 69_999);
		expect(half.refusal()).toBeUndefined();
		jest.setSystemTime(START_MS + 70_000);
		expect(half.refusal()).toBe('deadline');
		expect(whole.refusal()).toBeUndefined();
	});

	it('a half refuses what its whole refuses, though pages of its own are left', () => {
		const whole = PageBudget.of(4, 60_000);
		const half = whole.half();

		spend(whole, 4);
		expect(half.refusal()).toBe('page_limit');
	});
});
