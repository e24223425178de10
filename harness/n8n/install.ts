/** Installing the n8n line (scripts/install-n8n.sh), and our package packed and installed into a user folder, as n8n installs community packages. */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
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

/** What the packed package holds: `package.json` and every file under `dist/`, hashed. */
function buildFingerprint(): string {
	const hash = createHash('sha256');
	const add = (path: string, name: string) => {
		if (statSync(path).isDirectory()) {
			for (const entry of readdirSync(path).sort()) add(join(path, entry), `${name}/${entry}`);
			return;
		}
		hash.update(`${name}\u0000`).update(readFileSync(path)).update('\u0000');
	};
	add(join(PACKAGE_ROOT, 'package.json'), 'package.json');
	add(join(PACKAGE_ROOT, 'dist'), 'dist');
	return hash.digest('hex').slice(0, 16);
}

/** Where the package, packed and installed once per build, is kept for the user folders to copy. */
const INSTALLED_PACKAGES = join(PACKAGE_ROOT, '.e2e', 'installed-package');

/**
 * A user folder with this build of the package installed as n8n installs a community package:
 * built if stale, packed and installed once per build (an `npm pack` and an `npm install` cost
 * about 20 s here, in every test file), then kept under `.e2e/installed-package/<build>`; the
 * test lines running side by side share it. Callers copy it (`copyUserFolder`), never use it.
 */
export async function installedPackage(): Promise<string> {
	await ensureBuilt();
	const kept = join(INSTALLED_PACKAGES, buildFingerprint());
	if (existsSync(join(kept, '.n8n', 'nodes', 'node_modules'))) return kept;
	mkdirSync(INSTALLED_PACKAGES, { recursive: true });
	const workFolder = mkdtempSync(join(INSTALLED_PACKAGES, 'installing-'));
	const tarball = await packPackage(join(workFolder, 'pack'));
	const installed = await createUserFolder({ tarball, parent: workFolder });
	try {
		renameSync(installed, kept);
	} catch (error) {
		// another test line kept the same build first
		if (!existsSync(kept)) throw error;
	}
	rmSync(workFolder, { recursive: true, force: true });
	for (const other of readdirSync(INSTALLED_PACKAGES)) {
		const path = join(INSTALLED_PACKAGES, other);
		if (path !== kept && !other.startsWith('installing-'))
			rmSync(path, { recursive: true, force: true });
	}
	return kept;
}

/** A fresh user folder (under `parent`, or the temporary folder) with the package installed. */
export async function prepareUserFolder(parent?: string): Promise<string> {
	const installed = await installedPackage();
	const workFolder = mkdtempSync(join(parent ?? tmpdir(), 'wfm-e2e-'));
	return copyUserFolder(installed, workFolder);
}
