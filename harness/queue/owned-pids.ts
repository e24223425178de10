/**
 * Processes the queue services started (Postgres, Redis, nginx), stopped by PID; any still running
 * when the test process exits are killed with it.
 */
const owned = new Set<number>();
process.once('exit', () =>
	owned.forEach((pid) => {
		if (isAlive(pid)) process.kill(pid, 'SIGKILL');
	}),
);

export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export function ownPid(pid: number): void {
	owned.add(pid);
}

/** Sends `signal`, waits for the process to end (SIGKILL after `timeoutMs`) and lets go of it. */
export async function stopOwnedPid(
	pid: number,
	signal: NodeJS.Signals,
	timeoutMs = 20_000,
): Promise<void> {
	if (isAlive(pid)) {
		process.kill(pid, signal);
		const startedAt = Date.now();
		while (isAlive(pid) && Date.now() - startedAt < timeoutMs) {
			await new Promise((wake) => setTimeout(wake, 100));
		}
		if (isAlive(pid)) process.kill(pid, 'SIGKILL');
	}
	owned.delete(pid);
}
