/**
 * The harness's ports (harness/n8n/ports.ts): a port handed out is free, is not handed out again
 * while its lease lives, and is never one another live process holds a lease on. Each test gives
 * a range of a few ports and a lease folder of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PortLeases } from '../../harness/n8n/ports';

let folder: string;
let first: number;
beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'wfm-port-leases-'));
	// below the range the harness leases its servers' ports from, a block per jest worker
	first = 19_000 + 10 * Number(process.env.JEST_WORKER_ID ?? 1);
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const leaseOf = (port: number, pid: number) => writeFileSync(join(folder, `${port}-${pid}`), '');

/** A process that has ended: its pid is not alive (the kernel reuses pids only much later). */
function endedPid(): number {
	const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)']);
	return Number(child.stdout.toString());
}

it('hands out a port of its range that can be listened on, and leases it to this process', async () => {
	const port = await new PortLeases(folder, { first, last: first + 4 }).freePort();

	expect(port).toBeGreaterThanOrEqual(first);
	expect(port).toBeLessThanOrEqual(first + 4);
	expect(readdirSync(folder)).toEqual([`${port}-${process.pid}`]);
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	await new Promise((resolve) => server.close(resolve));
});

it('does not hand out a port twice, and says so when the range is used up', async () => {
	const leases = new PortLeases(folder, { first, last: first + 2 });
	const ports = [await leases.freePort(), await leases.freePort(), await leases.freePort()];

	expect(new Set(ports)).toEqual(new Set([first, first + 1, first + 2]));
	await expect(leases.freePort()).rejects.toThrow(`No free port in ${first}-${first + 2}`);
});

it("skips a port another live process holds a lease on, and takes over an ended process's", async () => {
	const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
	try {
		leaseOf(first, other.pid!);
		const ended = endedPid();
		leaseOf(first + 1, ended);
		const leases = new PortLeases(folder, { first, last: first + 1 });

		expect(await leases.freePort()).toBe(first + 1);
		expect(existsSync(join(folder, `${first + 1}-${ended}`))).toBe(false);
		await expect(leases.freePort()).rejects.toThrow('No free port');
		expect(existsSync(join(folder, `${first}-${other.pid}`))).toBe(true);
	} finally {
		other.kill();
	}
});

it('skips a port a server outside the harness listens on, and drops its lease on it', async () => {
	const server: Server = createServer();
	await new Promise<void>((resolve) => server.listen(first, '127.0.0.1', resolve));
	try {
		const leases = new PortLeases(folder, { first, last: first });

		await expect(leases.freePort()).rejects.toThrow(`No free port in ${first}-${first}`);
		expect(readdirSync(folder)).toEqual([]);
	} finally {
		await new Promise((resolve) => server.close(resolve));
	}
});

it('creates its lease folder when it is missing', async () => {
	const missing = join(folder, 'not-yet');
	const port = await new PortLeases(missing, { first, last: first }).freePort();

	expect(port).toBe(first);
	expect(readdirSync(missing)).toEqual([`${first}-${process.pid}`]);
});

it('removes the leases of ended processes it finds, whatever their port', async () => {
	const ended = endedPid();
	leaseOf(first + 5, ended);
	leaseOf(first + 6, ended);

	const port = await new PortLeases(folder, { first, last: first }).freePort();

	expect(readdirSync(folder)).toEqual([`${port}-${process.pid}`]);
});
