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
 * A test here fails on the deadline of what it waited for (each names it), not on jest's clock:
 * this default outlasts the named waits of any test that sets no timeout of its own (at most 270 s:
 * an activation's 30 s, a round of deliveries' 30 s, `settledExecutions`' 180 s…); a test with a
 * restart sets its own, above the 180 s an n8n start may take.
 */
const TEST_TIMEOUT_MS = 300_000;
/** Starting a queue-mode world: Postgres and Redis, then main, a worker and two webhook processes. */
const QUEUE_WORLD_START_MS = 1_110_000;

/**
 * One sandbox + n8n world for the whole test file, started before its first test and stopped after
 * its last. Returns an accessor, since the world exists only once `beforeAll` has run.
 * n8n serves no editor here unless a suite asks (`editor: true`, for what the editor serves): these
 * suites open no browser, and every start is cheaper without it (N8nStartOptions.editor).
 */
export function useE2eWorld(options: E2eWorldOptions = {}): () => E2eWorld {
	let world: E2eWorld | undefined;
	jest.setTimeout(TEST_TIMEOUT_MS);

	beforeAll(
		async () => {
			world = await E2eWorld.start({
				editor: false,
				...options,
				sandboxWebhooks: { timeoutMs: DELIVERY_WAIT_MS, ...options.sandboxWebhooks },
			});
		},
		options.queue ? QUEUE_WORLD_START_MS : 480_000,
	);

	afterAll(async () => {
		await world?.stop();
	}, 180_000);

	return () => {
		if (!world)
			throw new Error('The e2e world is not started: call useE2eWorld() at the top of the file');
		return world;
	};
}
