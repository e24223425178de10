/**
 * The physical limit for reading every member: a bare loop of `fetch` calls (limit=100, following
 * `next_cursor`) that keeps the records in one array, run in a fresh Node process so its memory
 * figures are its own. Prints one JSON line (`PlainLoopResult`) on stdout.
 *
 *   node --expose-gc --import tsx bench/plain-loop.ts <base URL> <API key>
 */

export interface PlainLoopResult {
	records: number;
	requests: number;
	wallMs: number;
	/** RSS just before the first request. */
	rssBeforeBytes: number;
	/** Highest RSS sampled (every 10 ms) while the loop ran and held the records. */
	rssPeakBytes: number;
	/** Heap in use after a full GC, before the loop and after it (records still held). */
	heapBeforeBytes: number;
	/** Highest heap in use sampled (every 10 ms) while the loop ran. */
	heapPeakBytes: number;
	heapAfterBytes: number;
}

interface MemberPage {
	data: unknown[];
	has_more: boolean;
	next_cursor: string | null;
}

const PAGE_SIZE = 100;

function collectGarbage(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('Run with node --expose-gc so heap figures are taken after a full GC');
	gc();
}

async function readAllMembers(baseUrl: string, apiKey: string): Promise<PlainLoopResult> {
	// n8n's contenders get a warm-up run; here one request (not to /members) loads fetch's HTTP stack.
	const warmUp = await fetch(`${baseUrl}/organization`, {
		headers: { authorization: `Bearer ${apiKey}` },
	});
	await warmUp.arrayBuffer();
	collectGarbage();
	const heapBeforeBytes = process.memoryUsage().heapUsed;
	const rssBeforeBytes = process.memoryUsage.rss();
	let rssPeakBytes = rssBeforeBytes;
	let heapPeakBytes = heapBeforeBytes;
	const sampleMemory = () => {
		const { rss, heapUsed } = process.memoryUsage();
		rssPeakBytes = Math.max(rssPeakBytes, rss);
		heapPeakBytes = Math.max(heapPeakBytes, heapUsed);
	};
	const sampler = setInterval(sampleMemory, 10);

	const records: unknown[] = [];
	let requests = 0;
	let cursor: string | null = null;
	const startedAt = performance.now();
	do {
		const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
		if (cursor) query.set('cursor', cursor);
		const response = await fetch(`${baseUrl}/members?${query}`, {
			headers: { authorization: `Bearer ${apiKey}` },
		});
		requests++;
		if (!response.ok)
			throw new Error(`GET /members answered ${response.status}: ${await response.text()}`);
		const page = (await response.json()) as MemberPage;
		for (const record of page.data) records.push(record);
		cursor = page.has_more ? page.next_cursor : null;
	} while (cursor);
	const wallMs = performance.now() - startedAt;

	clearInterval(sampler);
	sampleMemory();
	collectGarbage();
	const heapAfterBytes = process.memoryUsage().heapUsed;
	return {
		records: records.length,
		requests,
		wallMs,
		rssBeforeBytes,
		rssPeakBytes,
		heapBeforeBytes,
		heapPeakBytes,
		heapAfterBytes,
	};
}

if (require.main === module) {
	const [baseUrl, apiKey] = process.argv.slice(2);
	if (!baseUrl || !apiKey) {
		console.error('Usage: plain-loop.ts <base URL ending in /api/v1> <API key>');
		process.exit(2);
	}
	readAllMembers(baseUrl, apiKey).then(
		(result) => console.log(JSON.stringify(result)),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
