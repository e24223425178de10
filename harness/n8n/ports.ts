/**
 * Loopback ports for the servers the harness starts: n8n and its task broker, Postgres, Redis, nginx.
 *
 * A port chosen here is bound by another process later: n8n a few seconds later, a queue cluster's
 * webhook processes a minute later and again after each restart. On a machine that runs suites side
 * by side, two things could take it in between, and an n8n of another suite would then answer in
 * ours' place (a 404 for every webhook, after its readiness answered 200):
 * - the kernel, which hands out ports of its ephemeral range to every `listen(0)` and every
 *   outgoing connection: so ports come from below that range (Linux's default: 32768-60999);
 * - another test process choosing the same port: so each port is leased to one process. A lease
 *   is a file `<port>-<pid>` in a folder every harness process shares, and it lives as long as the
 *   process named in it. A process that creates a lease keeps it only if no other live lease on
 *   that port is there once its own is written: of two that race, at least one gives way, and a
 *   lease whose process has ended is removed by whoever finds it.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ATTEMPTS = 200;

export interface PortRange {
	first: number;
	last: number;
}

/** Ports leased through files in `folder`, from `range` (tests give their own of both). */
export class PortLeases {
	constructor(
		private readonly folder = join(tmpdir(), 'wfm-harness-port-leases'),
		private readonly range: PortRange = { first: 20_000, last: 32_000 },
	) {}

	/** A port on 127.0.0.1 that nothing listens on and no other process holds a lease on. */
	async freePort(): Promise<number> {
		mkdirSync(this.folder, { recursive: true });
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			const port = randomInt(this.range.first, this.range.last + 1);
			if (!this.lease(port)) continue;
			if (await canListen(port)) return port;
			this.release(port);
		}
		const { first, last } = this.range;
		throw new Error(`No free port in ${first}-${last} after ${ATTEMPTS} tries (${this.folder})`);
	}

	private lease(port: number): boolean {
		const own = this.ownLease(port);
		if (this.otherLiveLeases(port).length > 0) return false;
		try {
			writeFileSync(own, '', { flag: 'wx' });
		} catch (error) {
			// this process leased it already, for another of its servers
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
			throw error;
		}
		if (this.otherLiveLeases(port).length === 0) return true;
		rmSync(own, { force: true });
		return false;
	}

	private release(port: number): void {
		rmSync(this.ownLease(port), { force: true });
	}

	private ownLease(port: number): string {
		return join(this.folder, `${port}-${process.pid}`);
	}

	/**
	 * Leases on `port` held by other live processes. Every lease of an ended process found on the
	 * way is removed, whatever its port: the folder holds little more than the live leases.
	 */
	private otherLiveLeases(port: number): string[] {
		return readdirSync(this.folder).filter((name) => {
			const [leasedPort, pid] = name.split('-').map(Number);
			if (pid === process.pid) return false;
			if (!isAlive(pid)) {
				rmSync(join(this.folder, name), { force: true });
				return false;
			}
			return leasedPort === port;
		});
	}
}

const shared = new PortLeases();

/** A free loopback port for a server of the harness, leased to this process (see above). */
export async function freePort(): Promise<number> {
	return await shared.freePort();
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

async function canListen(port: number): Promise<boolean> {
	return await new Promise((resolveListen) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolveListen(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolveListen(true)));
	});
}
