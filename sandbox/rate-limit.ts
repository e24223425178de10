import type { SandboxClock } from './clock';
import type { RateLimitConfig } from './config';

/** A sliding window per API key, on the sandbox clock (advancing it opens the window). */
export class RateLimiter {
	private readonly hits = new Map<string, number[]>();

	constructor(
		private readonly config: RateLimitConfig,
		private readonly clock: SandboxClock,
	) {}

	/** Counts the request and answers 0, or answers the seconds to wait when the window is full. */
	take(key: string): { retryAfterSeconds: number; remaining: number } {
		const now = this.clock.now();
		const windowMs = this.config.perSeconds * 1000;
		const times = this.hits.get(key) ?? [];
		this.hits.set(key, times);
		while (times.length > 0 && times[0] <= now - windowMs) times.shift();
		if (times.length >= this.config.requests) {
			return {
				retryAfterSeconds: Math.max(1, Math.ceil((times[0] + windowMs - now) / 1000)),
				remaining: 0,
			};
		}
		times.push(now);
		return { retryAfterSeconds: 0, remaining: this.config.requests - times.length };
	}

	reset(): void {
		this.hits.clear();
	}
}
