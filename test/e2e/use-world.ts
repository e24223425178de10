import { E2eWorld, type E2eWorldOptions } from '../../harness/world';

/**
 * How long the sandbox waits for n8n's answer to a delivery in these suites: 30 s rather than its
 * default 10 s. They run n8n beside other suites on two busy cores, where an answer can take longer
 * than 10 s; a delivery answered after the API gave up runs again when retried (the documented
 * limit, tested on its own in test/engine/trigger-exactly-once.test.ts), which would make every
 * exactly-once assertion here depend on the machine's load. A suite may set its own.
 */
const DELIVERY_WAIT_MS = 30_000;

/**
 * One sandbox + n8n world for the whole test file, started before its first test and stopped after
 * its last. Returns an accessor, since the world exists only once `beforeAll` has run.
 */
export function useE2eWorld(options: E2eWorldOptions = {}): () => E2eWorld {
	let world: E2eWorld | undefined;

	beforeAll(async () => {
		world = await E2eWorld.start({
			...options,
			sandboxWebhooks: { timeoutMs: DELIVERY_WAIT_MS, ...options.sandboxWebhooks },
		});
	}, 480_000);

	afterAll(async () => {
		await world?.stop();
	}, 60_000);

	return () => {
		if (!world)
			throw new Error('The e2e world is not started: call useE2eWorld() at the top of the file');
		return world;
	};
}
