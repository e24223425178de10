/**
 * How far the sandbox clock may run ahead of the wall clock: far beyond any retry schedule or
 * secret window, and far inside what a JavaScript Date can represent, so no timestamp it produces
 * is ever invalid.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 366 * 24 * 3600;

/** Wall-clock time plus an offset tests can advance, so retries and secret windows need no waiting. */
export class SandboxClock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	/** Seconds it may still advance. */
	headroomSeconds(): number {
		return MAX_CLOCK_OFFSET_SECONDS - this.offsetMs / 1000;
	}

	/** Advances by `seconds`, which the caller has checked against `headroomSeconds()`. */
	advance(seconds: number): number {
		if (!(seconds >= 0 && seconds <= this.headroomSeconds())) {
			throw new RangeError(`The sandbox clock cannot advance by ${seconds} s`);
		}
		this.offsetMs += seconds * 1000;
		return this.now();
	}

	reset(): void {
		this.offsetMs = 0;
	}
}

/** ISO 8601 with an explicit UTC offset, e.g. `2026-01-31T09:00:00.000+00:00`. */
export function isoTimestamp(ms: number): string {
	return new Date(ms).toISOString().replace('Z', '+00:00');
}

export function isoDate(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10);
}
