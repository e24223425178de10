/**
 * Reads until a check holds, for state that n8n and the sandbox reach asynchronously (webhook
 * registration on newer n8n lines, executions finishing, deliveries settling).
 */
export async function eventually<T>(
	what: string,
	read: () => Promise<T>,
	check: (value: T) => boolean,
	{
		timeoutMs = 20_000,
		intervalMs = 200,
		describe = (value) => JSON.stringify(value),
	}: { timeoutMs?: number; intervalMs?: number; describe?: (value: T) => string } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (check(value)) return value;
		if (Date.now() > deadline) {
			throw new Error(`Still not ${what} after ${timeoutMs} ms: ${describe(value)}`);
		}
		await new Promise((wake) => setTimeout(wake, intervalMs));
	}
}
