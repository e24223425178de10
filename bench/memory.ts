import { readFileSync } from 'node:fs';

export interface MemorySample {
	/** Epoch milliseconds, comparable with the `startTime` n8n records for a node run. */
	at: number;
	bytes: number;
}

/** The resident set size of a process, from `/proc/<pid>/status` (Linux). */
export function readRssBytes(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
	if (!match) throw new Error(`No VmRSS line in /proc/${pid}/status`);
	return Number(match[1]) * 1024;
}

/**
 * Samples another process's RSS at a short interval. `/proc/<pid>/status`'s VmHWM would give the
 * peak only since the process started, so a long-lived n8n needs sampling to see the peak of one
 * node run.
 */
export class RssSampler {
	private readonly samples: MemorySample[] = [];

	private timer: NodeJS.Timeout | null = null;

	constructor(
		private readonly pid: number,
		private readonly intervalMs = 10,
	) {}

	start(): void {
		this.sample();
		this.timer = setInterval(() => this.sample(), this.intervalMs);
	}

	stop(): MemorySample[] {
		if (this.timer) clearInterval(this.timer);
		this.timer = null;
		this.sample();
		return this.samples;
	}

	private sample(): void {
		this.samples.push({ at: Date.now(), bytes: readRssBytes(this.pid) });
	}
}

/** The highest sample taken inside [from, to] (epoch ms), or the next one when none falls inside. */
export function peakBetween(samples: MemorySample[], from: number, to: number): number {
	const inside = samples.filter((sample) => sample.at >= from && sample.at <= to);
	const candidates =
		inside.length > 0 ? inside : samples.filter((sample) => sample.at >= from).slice(0, 1);
	if (candidates.length === 0)
		throw new Error('No RSS sample was taken during the measured window');
	return Math.max(...candidates.map((sample) => sample.bytes));
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function percentile(values: number[], fraction: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
	return sorted[index];
}

/** CPU time (user + system) a process has used so far, from `/proc/<pid>/stat`, in ms. */
export function readCpuMs(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Fields after the command name (which may contain spaces) start after the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const clockTicksPerSecond = 100;
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}
