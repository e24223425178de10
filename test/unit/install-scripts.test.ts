/**
 * The install scripts behind `npm test`, `npm start` and `npm run e2e:install` refuse with a
 * message that says what to do, and leave nothing half-installed, when the machine lacks what
 * they need. (Their success path runs in every `npm test`: the end-to-end suites need it.)
 */
import { spawnSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPTS = resolve(__dirname, '..', '..', 'scripts');

/** A PATH holding only these commands, taken from this machine's. */
function pathWith(folder: string, commands: string[]): string {
	for (const command of commands) {
		const found = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' });
		if (found.status === 0) symlinkSync(found.stdout.trim(), join(folder, command));
	}
	return folder;
}

function runScript(script: string, env: Record<string, string>) {
	const run = spawnSync('/bin/bash', [join(SCRIPTS, script)], {
		encoding: 'utf8',
		env: { HOME: process.env.HOME ?? '/root', ...env },
	});
	return { status: run.status, output: run.stdout + run.stderr };
}

let work: string;
beforeEach(() => {
	work = mkdtempSync(join(tmpdir(), 'wfm-install-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('scripts/install-n8n.sh', () => {
	it('without a C++ tool chain, names what is missing and how to get it, and installs nothing', () => {
		const bin = pathWith(work, [
			'dirname',
			'node',
			'npm',
			'df',
			'awk',
			'mkdir',
			'find',
			'sha256sum',
			'cut',
		]);
		const cache = join(work, 'cache');
		const { status, output } = runScript('install-n8n.sh', {
			PATH: bin,
			N8N_CACHE_ROOT: cache,
			N8N_VERSION: '2.8.4',
		});
		expect(status).toBe(1);
		expect(output).toContain('needs python3, make and g++ (missing: python3 make g++)');
		expect(output).toContain('apt-get install -y python3 make g++');
		expect(existsSync(cache)).toBe(false);
	});
});

describe('scripts/install-n8n.sh with a lockfile the registry cannot serve', () => {
	it('names the missing version and says how to re-resolve the lockfile', () => {
		// a copy of the scripts whose only line pins a version the npm registry does not have
		cpSync(SCRIPTS, join(work, 'scripts'), { recursive: true });
		const line = join(work, 'scripts', 'n8n', '9.9.9');
		mkdirSync(line);
		const dependencies = { 'is-number': '99.0.0' };
		writeFileSync(
			join(line, 'package.json'),
			JSON.stringify({ name: 'n8n-runtime-cache', private: true, dependencies }),
		);
		writeFileSync(
			join(line, 'package-lock.json'),
			JSON.stringify({
				name: 'n8n-runtime-cache',
				lockfileVersion: 3,
				requires: true,
				packages: {
					'': { name: 'n8n-runtime-cache', dependencies },
					'node_modules/is-number': { version: '99.0.0' },
				},
			}),
		);
		const lines = [
			{ n8n: '9.9.9', node: null, nodeRange: '>=20', ignoreScripts: false, rebuild: [] },
		];
		writeFileSync(join(work, 'scripts', 'n8n', 'lines.json'), JSON.stringify({ lines }));

		const environment = { ...process.env };
		delete environment.N8N_VERSION; // npm test sets it for the jest run
		const run = spawnSync('/bin/bash', [join(work, 'scripts', 'install-n8n.sh'), '9.9.9'], {
			encoding: 'utf8',
			env: { ...environment, N8N_CACHE_ROOT: join(work, 'cache') },
			timeout: 50_000,
		});
		const output = run.stdout + run.stderr;
		expect(run.status).toBe(1);
		expect(output).toContain(
			'the npm registry lacks a package version that scripts/n8n/9.9.9/package-lock.json pins (No matching version found for is-number@99.0.0)',
		);
		expect(output).toContain('npm install --package-lock-only --ignore-scripts');
		expect(existsSync(join(work, 'cache', 'n8n-9.9.9', '.installed'))).toBe(false);
	}, 60_000);
});

describe('scripts/install-chromium.sh', () => {
	it('refuses a Chromium that does not render a page, and says what to do', () => {
		const { status, output } = runScript('install-chromium.sh', {
			PATH: process.env.PATH ?? '',
			CHROMIUM_PATH: '/bin/false',
		});
		expect(status).toBe(1);
		expect(output).toContain('it does not render a page headless (it printed nothing)');
		expect(output).toContain('CHROMIUM_PATH=/bin/false does not work');
	});
});

describe('scripts/install-queue-services.sh', () => {
	it('refuses binaries it was pointed at that do not run or are missing', () => {
		const { status, output } = runScript('install-queue-services.sh', {
			PATH: process.env.PATH ?? '',
			POSTGRES_BIN_DIR: work,
			REDIS_SERVER: '/bin/false',
			NGINX: `${work}/nginx`,
		});
		expect(status).toBe(1);
		expect(output).toContain(`${work}/initdb does not run`);
		expect(output).toContain('/bin/false does not run');
		expect(output).toContain(`${work}/nginx is missing`);
		expect(output).toContain('point them at working binaries');
	});
});
