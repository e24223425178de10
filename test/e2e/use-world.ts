import { E2eWorld, type E2eWorldOptions } from '../../harness/world';

/**
 * One sandbox + n8n world for the whole test file, started before its first test and stopped after
 * its last. Returns an accessor, since the world exists only once `beforeAll` has run.
 */
export function useE2eWorld(options: E2eWorldOptions = {}): () => E2eWorld {
	let world: E2eWorld | undefined;

	beforeAll(async () => {
		world = await E2eWorld.start(options);
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
