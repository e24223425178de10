/**
 * `Date` that a test moves forward, everything else real: the node's clock and the sandbox's
 * (the wall clock plus its offset) move together, so hours pass for the API and for n8n alike
 * without waiting, while timers, I/O and the engine run as usual.
 */
export function useMovableDate(): void {
	beforeEach(() => {
		jest.useFakeTimers({
			now: Date.now(),
			doNotFake: [
				'hrtime',
				'nextTick',
				'performance',
				'queueMicrotask',
				'requestAnimationFrame',
				'cancelAnimationFrame',
				'requestIdleCallback',
				'cancelIdleCallback',
				'setImmediate',
				'clearImmediate',
				'setInterval',
				'clearInterval',
				'setTimeout',
				'clearTimeout',
			],
		});
	});
	afterEach(() => jest.useRealTimers());
}

/** Moves `Date` forward by `seconds` (see {@link useMovableDate}). */
export function moveDate(seconds: number): void {
	jest.setSystemTime(Date.now() + seconds * 1000);
}
