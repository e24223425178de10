import {
	type BatchPlace,
	SaveBatch,
	type StoredBy,
} from '../../nodes/WorkforceManagementTrigger/duplicates/saveBatch';

/** A request in a batch: what it was told so far, and whether it was chosen to save. */
interface Request {
	place: BatchPlace;
	storedBy: StoredBy | undefined;
	chosen: number;
}

function join(batch: SaveBatch): Request {
	const request: Request = {
		place: undefined as unknown as BatchPlace,
		storedBy: undefined,
		chosen: 0,
	};
	request.place = batch.join(() => request.chosen++);
	void request.place.storedBy.then((storedBy) => (request.storedBy = storedBy));
	return request;
}

async function flushPromises(): Promise<void> {
	for (let turn = 0; turn < 5; turn++) await Promise.resolve();
}

describe('SaveBatch', () => {
	it('one request at a time: each saves for itself at once', async () => {
		const batch = new SaveBatch();
		for (let index = 0; index < 3; index++) {
			const request = join(batch);
			await flushPromises();
			expect([request.storedBy, request.chosen]).toEqual(['own_save', 1]);
			request.place.close(true);
		}
	});

	it('requests arriving during a save wait; the newest saves for all of them once it is answered', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const waiting = [join(batch), join(batch), join(batch)];
		await flushPromises();
		expect(waiting.map((request) => request.storedBy)).toEqual([undefined, undefined, undefined]);

		first.place.close(true);
		await flushPromises();
		expect(waiting.map((request) => [request.storedBy, request.chosen])).toEqual([
			[undefined, 0],
			[undefined, 0],
			['own_save', 1],
		]);

		waiting[2].place.close(true);
		await flushPromises();
		expect(waiting.map((request) => request.storedBy)).toEqual([
			'leader_save',
			'leader_save',
			'own_save',
		]);
	});

	it('a request arriving after the saver was chosen waits for the next save, not this one', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const covered = join(batch);
		first.place.close(true);
		const late = join(batch); // arrives while `covered`'s saver (itself) is pending
		await flushPromises();
		expect([covered.storedBy, late.storedBy]).toEqual(['own_save', undefined]);

		covered.place.close(true);
		await flushPromises();
		expect([late.storedBy, late.chosen]).toEqual(['own_save', 1]);
	});

	it('a saver whose run did not start proves nothing: the ones it covered are saved by the next', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const [older, saver] = [join(batch), join(batch)];
		first.place.close(true);
		await flushPromises();
		expect(saver.storedBy).toBe('own_save');

		saver.place.close(false);
		await flushPromises();
		expect([older.storedBy, older.chosen]).toEqual(['own_save', 1]);
	});

	it('a waiting request that ends (its client went away) is abandoned and never chosen', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const [stays, leaves] = [join(batch), join(batch)];
		leaves.place.close(false);
		await flushPromises();
		expect([leaves.storedBy, leaves.chosen]).toEqual(['abandoned', 0]);

		first.place.close(true);
		await flushPromises();
		expect([stays.storedBy, stays.chosen]).toEqual(['own_save', 1]);
	});

	it('a covered request that ends before its saver is answered is abandoned; the others are not held up', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const [leaves, stays, saver] = [join(batch), join(batch), join(batch)];
		first.place.close(true);
		leaves.place.close(false);
		saver.place.close(true);
		await flushPromises();
		expect([leaves.storedBy, stays.storedBy, saver.storedBy]).toEqual([
			'abandoned',
			'leader_save',
			'own_save',
		]);
		expect(leaves.chosen + stays.chosen).toBe(0);
	});

	it('closing a request twice changes nothing', async () => {
		const batch = new SaveBatch();
		const first = join(batch);
		const second = join(batch);
		first.place.close(true);
		first.place.close(true);
		await flushPromises();
		expect([second.storedBy, second.chosen]).toEqual(['own_save', 1]);
	});
});
