/** Installing the n8n line (scripts/install-n8n.sh), and our package packed and installed into a user folder, as n8n installs community packages. */
import { execFile, spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { PACKAGE_ROOT } from '../constants';
import { N8N_CACHE_DIR, N8N_CACHE_ROOT, N8N_VERSION } from './launch';

const execFileAsync = promisify(execFile);

/**
 * Installs n8n into its cache folder, or proves the cached install works and repairs it when it
 * does not (scripts/install-n8n.sh), printing its progress. For the demo and the benchmarks;
 * tests only call `n8nBinary()`, so they never install anything themselves.
 */
export function ensureN8nInstalled(): void {
	const install = spawnSync('bash', [join(PACKAGE_ROOT, 'scripts', 'install-n8n.sh')], {
		cwd: PACKAGE_ROOT,
		stdio: 'inherit',
		env: { ...process.env, N8N_VERSION, N8N_CACHE_DIR, N8N_CACHE_ROOT },
	});
	if (install.status !== 0) {
		throw new Error(`n8n ${N8N_VERSION} could not be installed: see the message above`);
	}
}

function newestModification(path: string): number {
	const stats = statSync(path);
	if (!stats.isDirectory()) return stats.mtimeMs;
	return readdirSync(path).reduce(
		(newest, entry) => Math.max(newest, newestModification(join(path, entry))),
		stats.mtimeMs,
	);
}

/** Runs `npm run build` unless dist/ is newer than every source file. */
export async function ensureBuilt(): Promise<void> {
	const dist = join(PACKAGE_ROOT, 'dist');
	const sources = ['nodes', 'credentials', 'package.json'].map((entry) =>
		join(PACKAGE_ROOT, entry),
	);
	const sourcesChanged = Math.max(...sources.filter(existsSync).map(newestModification));
	if (existsSync(dist) && newestModification(dist) >= sourcesChanged) return;
	await execFileAsync('npm', ['run', 'build'], { cwd: PACKAGE_ROOT, maxBuffer: 32 * 1024 * 1024 });
}

/** `npm pack`s the built package into `destination` and returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
	mkdirSync(destination, { recursive: true });
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--json', '--pack-destination', destination],
		{ cwd: PACKAGE_ROOT, maxBuffer: 32 * 1024 * 1024 },
	);
	const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	return join(destination, packed.filename);
}

/**
 * Creates a fresh n8n user folder with the package installed as a community package:
 * `<userFolder>/.n8n/nodes/node_modules/n8n-nodes-workforce-management`.
 */
export async function createUserFolder(options: {
	tarball: string;
	parent?: string;
}): Promise<string> {
	const parent = options.parent ?? tmpdir();
	mkdirSync(parent, { recursive: true });
	const userFolder = mkdtempSync(join(parent, 'n8n-user-'));
	const nodesFolder = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(
		join(nodesFolder, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
	);
	await execFileAsync(
		'npm',
		[
			'install',
			'--omit=dev',
			'--omit=peer',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			options.tarball,
		],
		{ cwd: nodesFolder, maxBuffer: 32 * 1024 * 1024 },
	);
	return userFolder;
}

/** A fresh user folder holding a copy of `source`'s installed community packages. */
export function copyUserFolder(source: string, parent: string): string {
	const userFolder = mkdtempSync(join(parent, 'n8n-user-'));
	cpSync(join(source, '.n8n', 'nodes'), join(userFolder, '.n8n', 'nodes'), { recursive: true });
	return userFolder;
}

/** build (when stale) → pack → fresh user folder with the package installed. */
export async function prepareUserFolder(parent?: string): Promise<string> {
	await ensureBuilt();
	const workFolder = mkdtempSync(join(parent ?? tmpdir(), 'wfm-e2e-'));
	const tarball = await packPackage(join(workFolder, 'pack'));
	return await createUserFolder({ tarball, parent: workFolder });
}
