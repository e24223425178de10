/**
 * Which n8n runs, on which Node, and the command that starts it: the one seam between the harness
 * and an n8n installation. Everything else (process.ts's start, readiness and stop, the client, the
 * queue cluster) talks to the process and its HTTP port only, so an n8n that ships only as a Docker
 * image (3.0) changes this file alone; see docs/n8n-3.md.
 *
 * The line comes from `--n8n <version>` on the command line (npm start), N8N_VERSION (default: the newest tested line in scripts/n8n/lines.json); a
 * line whose `node` is set runs on that Node from the cache (scripts/install-node.sh), first on
 * PATH, because n8n starts its JavaScript task runner as plain `node`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

import { PACKAGE_ROOT } from '../constants';

export interface N8nLine {
	n8n: string;
	/** An exact Node version from the registry, or null for the Node running this process. */
	node: string | null;
	nodeRange: string;
	released: string;
	/**
	 * Whether n8n runs the webhook methods (`checkExists()`) of every active workflow when it
	 * starts: 2.8.4 does; 2.41.1 keeps its webhook rows across a restart and runs none.
	 */
	webhookMethodsAtStart: boolean;
	/** The setting of how long n8n's database health check waits (`N8N_DB_PING_TIMEOUT` until 2.3x). */
	dbPingTimeoutVariable: string;
	/** What its first install takes on a fresh machine, idle and busy, in the words the README quotes. */
	installTime: string;
}

/** The tested lines, oldest first (scripts/n8n/lines.json). */
export const N8N_LINES: readonly N8nLine[] = (
	JSON.parse(readFileSync(join(PACKAGE_ROOT, 'scripts', 'n8n', 'lines.json'), 'utf8')) as {
		lines: N8nLine[];
	}
).lines;

export const NEWEST_N8N_LINE = N8N_LINES[N8N_LINES.length - 1];

/** A tested line, or (the compatibility matrix's 1.123.x) an untested version on this process's Node. */
export function n8nLine(version: string): N8nLine {
	return (
		N8N_LINES.find((line) => line.n8n === version) ?? {
			n8n: version,
			node: null,
			nodeRange: '',
			released: '',
			webhookMethodsAtStart: true,
			dbPingTimeoutVariable: 'N8N_DB_PING_TIMEOUT',
			installTime: 'several minutes',
		}
	);
}

/** `npm start -- --n8n 2.8.4` */
function versionFromArguments(): string | undefined {
	const index = process.argv.indexOf('--n8n');
	return index === -1 ? undefined : process.argv[index + 1];
}

export const N8N_VERSION = versionFromArguments() ?? process.env.N8N_VERSION ?? NEWEST_N8N_LINE.n8n;
export const N8N_LINE = n8nLine(N8N_VERSION);
export const N8N_CACHE_ROOT =
	process.env.N8N_CACHE_ROOT ?? join(homedir(), '.cache', 'n8n-nodes-workforce-management');
export const N8N_CACHE_DIR =
	process.env.N8N_CACHE_DIR ?? join(N8N_CACHE_ROOT, `n8n-${N8N_VERSION}`);

/** The Node binary this line runs on. */
export function nodeBinary(): string {
	if (!N8N_LINE.node) return process.execPath;
	return join(N8N_CACHE_ROOT, `node-${N8N_LINE.node}`, 'bin', 'node');
}

/** "n8n 2.41.1 on Node 24.11.1", for banners and reports. */
export function runtimeDescription(): string {
	return `n8n ${N8N_VERSION} on Node ${N8N_LINE.node ?? process.versions.node}`;
}

/**
 * Whether the cache holds what scripts/install-n8n.sh would accept for a tested line: an `npm ci`
 * of the lockfile in the repository. Otherwise the script would reinstall, which a test must not
 * start.
 */
function installedFromLockfile(): boolean {
	const lockfile = join(PACKAGE_ROOT, 'scripts', 'n8n', N8N_VERSION, 'package-lock.json');
	if (!existsSync(lockfile)) return true;
	const sha256 = createHash('sha256').update(readFileSync(lockfile)).digest('hex');
	const marker = join(N8N_CACHE_DIR, '.npm-ci-lockfile-sha256');
	return existsSync(marker) && readFileSync(marker, 'utf8').trim() === sha256;
}

/** The n8n binary of the cached install; throws (never skips) when `npm run e2e:install` has not run. */
export function n8nBinary(): string {
	const binary = join(N8N_CACHE_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
	const ready =
		existsSync(binary) && existsSync(join(N8N_CACHE_DIR, '.installed')) && installedFromLockfile();
	if (!ready || !existsSync(nodeBinary())) {
		throw new Error(
			`n8n ${N8N_VERSION} is not installed (or not from scripts/n8n/${N8N_VERSION}/package-lock.json) in ${N8N_CACHE_DIR}` +
				(N8N_LINE.node ? ` (with Node ${N8N_LINE.node} in ${N8N_CACHE_ROOT})` : '') +
				'. Run `npm run e2e:install` first (the end-to-end tests need a real n8n; a first install takes about 6 minutes per line, up to 13 on a busy machine).',
		);
	}
	return binary;
}

/** What to spawn for `n8n <command>`, and the environment it needs beyond n8n's own settings. */
export function n8nCommand(command: string): {
	file: string;
	args: string[];
	env: Record<string, string>;
} {
	const node = nodeBinary();
	return {
		file: node,
		args: [n8nBinary(), command],
		env: { PATH: [join(node, '..'), process.env.PATH].filter(Boolean).join(delimiter) },
	};
}
