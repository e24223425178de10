/** Wall-clock time plus an offset tests can advance, so retries and secret windows need no waiting. */
export class SandboxClock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	advance(seconds: number): number {
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
