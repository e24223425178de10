/**
 * The pages and time that the walks of a list given one budget may spend together (the recovery
 * reads its deliveries list twice on one budget, the first time on half of it).
 */
import { PageBudget } from '../../nodes/shared/transport';

const START_MS = Date.parse('2025-03-01T12:00:00Z');

beforeEach(() => jest.useFakeTimers({ now: START_MS }));
afterEach(() => jest.useRealTimers());

/** Spends `pages` pages of `budget`, then asks it for one more. */
function refusalAfter(budget: PageBudget, pages: number): ReturnType<PageBudget['refusal']> {
	for (let page = 0; page < pages; page++) budget.spendPage();
	return budget.refusal();
}

/** Sets the clock to `atMs`, then asks `budget` for one more page. */
function refusalAt(budget: PageBudget, atMs: number): ReturnType<PageBudget['refusal']> {
	jest.setSystemTime(atMs);
	return budget.refusal();
}

describe('PageBudget', () => {
	it('refuses the page after its last one', () => {
		const budget = PageBudget.of(3, 60_000);

		expect(refusalAfter(budget, 2)).toBeUndefined();
		expect(refusalAfter(budget, 1)).toBe('page_limit');
	});

	it('refuses any page once its time is up, not before', () => {
		const budget = PageBudget.of(3, 60_000);

		expect(refusalAt(budget, START_MS + 59_999)).toBeUndefined();
		expect(refusalAt(budget, START_MS + 60_000)).toBe('deadline');
	});

	it('gives half of the pages left; what the half spends, the whole has spent', () => {
		const whole = PageBudget.of(5, 60_000);
		whole.spendPage();
		const half = whole.half();

		expect(refusalAfter(half, 2)).toBe('page_limit');
		expect(whole.refusal()).toBeUndefined();
		expect(refusalAfter(whole, 1)).toBeUndefined();
		expect(refusalAfter(whole, 1)).toBe('page_limit');
	});

	it('gives half of the time left: the half ends midway, the whole at its own end', () => {
		const whole = PageBudget.of(200, 120_000);
		jest.setSystemTime(START_MS + 20_000);
		const half = whole.half();

		expect(refusalAt(half, START_MS + 69_999)).toBeUndefined();
		expect(refusalAt(half, START_MS + 70_000)).toBe('deadline');
		expect(whole.refusal()).toBeUndefined();
	});

	it('a half refuses what its whole refuses, though pages of its own are left', () => {
		const whole = PageBudget.of(4, 60_000);
		const half = whole.half();

		expect(refusalAfter(whole, 4)).toBe('page_limit');
		expect(half.refusal()).toBe('page_limit');
	});
});
