/**
 * One save of static data per burst, not one per delivery: group commit over n8n's own saves.
 *
 * n8n saves a request's static data (awaited) just before it answers, when the request changed it;
 * on SQLite that is one more write per delivery, a quarter of the trigger's throughput on 2.8. An
 * id must be stored before its 200, but any save that carries it will do. So of the deliveries
 * that arrive while one request's save is pending, only one (the newest) changes its static data:
 * it is written every id accepted so far. The others wait inside `webhook()` until its answer has
 * gone out, which n8n sends only after the save, and then start their runs with nothing to save.
 * A leader whose run did not start (n8n answered 500, or the client went away) proves nothing: the
 * requests it covered wait for the next one. With one delivery at a time, each leads at once.
 */

/** How a request's id reaches the database. */
export type StoredBy =
	/** this request's own save: its static data now carries the memory */
	| 'own_save'
	/** another request's save, already done */
	| 'leader_save'
	/** nobody's: the request ended (its client went away) while it waited; start no run */
	| 'abandoned';

interface Member {
	/** Called once, as the member is chosen to save: write the memory into its static data. */
	lead(): void;
	resolve(storedBy: StoredBy): void;
	decided: boolean;
}

export interface BatchPlace {
	/** Settles once the request may go on; `own_save` at once for a request that leads on arrival. */
	storedBy: Promise<StoredBy>;
	/** The request is over: `started` when n8n answered it after starting its run (and saving). */
	close(started: boolean): void;
}

/** The save batches of one registration, in one process. */
export class SaveBatch {
	/** The request whose save is pending (chosen, not yet answered). */
	private leader: Member | undefined;

	/** Requests whose ids the leader's save carries, waiting for its answer. */
	private covered: Member[] = [];

	/** Requests that arrived after the leader was chosen: the next save carries them. */
	private waiting: Member[] = [];

	join(lead: () => void): BatchPlace {
		let resolve: (storedBy: StoredBy) => void = () => undefined;
		const storedBy = new Promise<StoredBy>((settle) => (resolve = settle));
		const member: Member = { lead, resolve, decided: false };
		if (this.leader === undefined) this.choose(member, []);
		else this.waiting.push(member);
		return { storedBy, close: (started) => this.close(member, started) };
	}

	private choose(leader: Member, covered: Member[]): void {
		this.leader = leader;
		this.covered = covered;
		leader.decided = true;
		leader.lead();
		leader.resolve('own_save');
	}

	private close(member: Member, started: boolean): void {
		if (member !== this.leader) {
			if (member.decided) return;
			this.covered = this.covered.filter((other) => other !== member);
			this.waiting = this.waiting.filter((other) => other !== member);
			this.decide(member, 'abandoned');
			return;
		}
		const covered = this.covered;
		this.leader = undefined;
		this.covered = [];
		if (started) for (const other of covered) this.decide(other, 'leader_save');
		else this.waiting.unshift(...covered);
		const next = this.waiting.pop();
		if (next === undefined) return;
		const rest = this.waiting;
		this.waiting = [];
		this.choose(next, rest);
	}

	private decide(member: Member, storedBy: StoredBy): void {
		member.decided = true;
		member.resolve(storedBy);
	}
}
