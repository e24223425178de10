/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages (scripts/install-queue-services.sh):
 * an own cluster and an own redis-server on free loopback ports, in a temporary folder, stopped by
 * PID. Nothing persists: fsync off, no Redis snapshots.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../n8n/ports';
import { ownPid, stopOwnedPid } from './owned-pids';

const INSTALL_HINT = 'Run `npm run e2e:install` (scripts/install-queue-services.sh) first.';

/** The newest Postgres Debian installs, unless POSTGRES_BIN_DIR names one (as the install script does). */
function postgresBinDir(): string {
	if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
		: [];
	const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
	if (!newest) throw new Error(`No Postgres found in ${root}. ${INSTALL_HINT}`);
	return join(root, newest, 'bin');
}

function redisServerBinary(): string {
	const binary = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
	if (!existsSync(binary)) throw new Error(`${binary} is missing. ${INSTALL_HINT}`);
	return binary;
}

const asRoot = process.getuid?.() === 0;

/** Postgres refuses to run as root: as root, its commands run as the user postgres. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

/** `<folder>/postgres`, owned by whoever runs Postgres, in a folder it can traverse. */
function postgresHome(folder: string): string {
	const home = join(folder, 'postgres');
	mkdirSync(home, { mode: 0o700 });
	chmodSync(folder, 0o711);
	if (asRoot) {
		const id = (flag: string) =>
			Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
		chownSync(home, id('-u'), id('-g'));
	}
	return home;
}

export interface PostgresService {
	host: string;
	port: number;
	user: string;
	database: string;
	pid: number;
	stop(): Promise<void>;
}

/** A fresh cluster (data, socket, log) in a temporary folder, user `n8n`, no password on loopback. */
export async function startPostgres(): Promise<PostgresService> {
	const folder = mkdtempSync(join(tmpdir(), 'wfm-postgres-'));
	const bin = postgresBinDir();
	const port = await freePort();
	const home = postgresHome(folder);
	const data = join(home, 'data');
	const user = 'n8n';
	const run = (tool: string, args: string[]) => {
		const [command, commandArgs] = asPostgres(join(bin, tool), args);
		execFileSync(command, commandArgs, { cwd: home, stdio: 'pipe', timeout: 120_000 });
	};
	run('initdb', ['-D', data, '-U', user, '--auth=trust', '--no-sync', '-E', 'UTF8']);
	// -w: pg_ctl returns once the server accepts connections; the socket goes into the folder too
	run('pg_ctl', [
		'-D',
		data,
		'-l',
		join(home, 'postgres.log'),
		'-w',
		'-o',
		`-p ${port} -c listen_addresses=127.0.0.1 -k ${home} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
		'start',
	]);
	const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
	ownPid(pid);
	return {
		host: '127.0.0.1',
		port,
		user,
		database: 'postgres',
		pid,
		async stop() {
			// SIGINT: Postgres' fast shutdown (ends the sessions, then stops)
			await stopOwnedPid(pid, 'SIGINT');
			rmSync(folder, { recursive: true, force: true });
		},
	};
}

export interface RedisService {
	host: string;
	port: number;
	pid: number;
	stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisService> {
	const port = await freePort();
	const child: ChildProcess = spawn(
		redisServerBinary(),
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const pid = child.pid!;
	ownPid(pid);
	const startedAt = Date.now();
	while (!output.includes('Ready to accept connections')) {
		if (child.exitCode !== null || Date.now() - startedAt > 30_000) {
			await stopOwnedPid(pid, 'SIGKILL');
			throw new Error(`redis-server did not start on port ${port}:\n${output}`);
		}
		await new Promise((wake) => setTimeout(wake, 50));
	}
	return {
		host: '127.0.0.1',
		port,
		pid,
		async stop() {
			await stopOwnedPid(pid, 'SIGTERM');
		},
	};
}
