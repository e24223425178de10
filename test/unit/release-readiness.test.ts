/**
 * What n8n's verification needs from the repository, checked without GitHub: the publish and CI
 * workflows' structure (an actionlint stand-in: YAML parsed, then the triggers, permissions and
 * steps that matter), the release scripts, the release-notes gate, and links that agree.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseDocument } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const packageJson = JSON.parse(read('package.json'));

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
	if?: string;
}
interface Job {
	'runs-on': string;
	permissions?: Record<string, string>;
	steps: Step[];
	'timeout-minutes'?: number;
}
interface Workflow {
	name: string;
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

/** Parses a workflow strictly: YAML errors and duplicate keys fail, as they fail on GitHub. */
function loadWorkflow(path: string): Workflow {
	const document = parseDocument(read(path), { uniqueKeys: true, prettyErrors: true });
	expect(document.errors.map((error) => error.message)).toEqual([]);
	const workflow = document.toJS() as Workflow;
	expect(typeof workflow.name).toBe('string');
	expect(Object.keys(workflow.jobs).length).toBeGreaterThan(0);
	return workflow;
}

const ACTION_KEYS = new Set([
	'name',
	'uses',
	'run',
	'with',
	'env',
	'if',
	'id',
	'shell',
	'working-directory',
	'continue-on-error',
	'timeout-minutes',
]);

/** Every step is either `uses: owner/repo@ref` or `run:`, never both, with only keys GitHub knows. */
function expectWellFormedSteps(job: Job) {
	expect(job['runs-on']).toBe('ubuntu-latest');
	for (const step of job.steps) {
		expect(Object.keys(step).filter((key) => !ACTION_KEYS.has(key))).toEqual([]);
		expect(Boolean(step.uses) !== Boolean(step.run)).toBe(true);
		if (step.uses) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@v\d+$/);
	}
}

const indexOfStep = (job: Job, matches: (step: Step) => boolean) => job.steps.findIndex(matches);

describe('.github/workflows/publish.yml', () => {
	const workflow = loadWorkflow('.github/workflows/publish.yml');
	const jobs = Object.values(workflow.jobs);
	const job = jobs[0];

	it('runs only on a pushed version tag, one job', () => {
		expect(workflow.on).toEqual({ push: { tags: ['*.*.*'] } });
		expect(jobs).toHaveLength(1);
		expectWellFormedSteps(job);
	});

	it('may mint an OIDC token for provenance and only read the repository', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		expect(workflow.permissions).toBeUndefined();
	});

	it('checks out, sets up Node with the npm registry, installs with npm ci', () => {
		const checkout = indexOfStep(job, (s) => s.uses?.startsWith('actions/checkout@') ?? false);
		const setupNode = indexOfStep(job, (s) => s.uses?.startsWith('actions/setup-node@') ?? false);
		const install = indexOfStep(job, (s) => s.run?.trim() === 'npm ci');
		expect(checkout).toBe(0);
		expect(setupNode).toBe(1);
		expect(job.steps[setupNode].with).toMatchObject({
			'node-version': '20',
			'registry-url': 'https://registry.npmjs.org/',
		});
		expect(install).toBeGreaterThan(setupNode);
	});

	it('runs the full check and the release-notes gate after npm ci and before publishing', () => {
		const install = indexOfStep(job, (s) => s.run?.trim() === 'npm ci');
		const check = indexOfStep(job, (s) => s.run?.trim() === 'npm test');
		const notes = indexOfStep(job, (s) =>
			/release-notes\.mjs "\$GITHUB_REF_NAME"/.test(s.run ?? ''),
		);
		const release = indexOfStep(job, (s) => /^\s*npm run release\s*$/m.test(s.run ?? ''));
		expect(install).toBeGreaterThanOrEqual(0);
		expect(check).toBeGreaterThan(install);
		expect(notes).toBeGreaterThan(check);
		expect(release).toBeGreaterThan(notes);
		expect(release).toBe(job.steps.length - 1);
	});

	it('publishes through `npm run release` (n8n-node release: provenance in GitHub Actions), token optional', () => {
		const release = job.steps[job.steps.length - 1];
		expect(packageJson.scripts.release).toBe('n8n-node release');
		expect(release.env).toEqual({ NPM_TOKEN: '${{ secrets.NPM_TOKEN }}' });
		expect(release.run).toContain(
			'[ -n "$NPM_TOKEN" ] && npm config set //registry.npmjs.org/:_authToken "$NPM_TOKEN"',
		);
		// No direct `npm publish` that could skip provenance.
		expect(job.steps.some((s) => /npm publish/.test(s.run ?? ''))).toBe(false);
	});

	it("uses an npm recent enough for trusted publishing (npm >= 11.5.1; Node 20's own is 10)", () => {
		const npmStep = job.steps.find((s) => /npm install --global npm@/.test(s.run ?? ''));
		const version = /npm@(\d+)\.(\d+)\.(\d+)/.exec(npmStep?.run ?? '');
		expect(version).not.toBeNull();
		const [major, minor] = [Number(version![1]), Number(version![2])];
		expect(major > 11 || (major === 11 && minor >= 5)).toBe(true);
	});
});

describe('.github/workflows/ci.yml', () => {
	const workflow = loadWorkflow('.github/workflows/ci.yml');
	const job = Object.values(workflow.jobs)[0];

	it('runs on pull requests and pushes to main, read-only', () => {
		expect(workflow.on).toEqual({ pull_request: null, push: { branches: ['main'] } });
		expect(workflow.permissions).toEqual({ contents: 'read' });
		expectWellFormedSteps(job);
	});

	it('runs .ci/run (npm ci, then npm test) on Node 20', () => {
		const setupNode = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(setupNode?.with?.['node-version']).toBe('20');
		expect(job.steps.filter((s) => s.run).map((s) => s.run?.trim())).toEqual(['bash .ci/run']);
		expect(read('.ci/run')).toMatch(/npm ci --no-audit --no-fund[\s\S]*\nnpm test\n/);
	});
});

describe('package.json for publishing', () => {
	it('has the node-cli release scripts', () => {
		expect(packageJson.scripts).toMatchObject({
			release: 'n8n-node release',
			prepublishOnly: 'n8n-node prerelease',
		});
	});

	it('asks npm for provenance on every publish (prepublishOnly never runs under ignore-scripts=true)', () => {
		expect(read('.npmrc')).toMatch(/^ignore-scripts=true$/m);
		expect(packageJson.publishConfig).toEqual({ provenance: true });
	});

	it('points repository, homepage, bugs and every documentation link at the same GitHub repository, the Docs links at their README sections', () => {
		const repo = 'https://github.com/n8n-nodes-workforce-management/n8n-nodes-workforce-management';
		expect(packageJson.repository).toEqual({ type: 'git', url: `git+${repo}.git` });
		expect(packageJson.homepage).toBe(`${repo}#readme`);
		expect(packageJson.bugs).toEqual({ url: `${repo}/issues` });

		const links = (file: string) =>
			[...read(file).matchAll(/https:\/\/github\.com\/[^'"\s)]+/g)].map((m) => m[0]);
		// the editor uses a documentationUrl as it is: the README's section
		expect(links('credentials/WorkforceManagementApi.credentials.ts')).toEqual([
			`${repo}#credentials`,
		]);
		expect(links('nodes/WorkforceManagement/WorkforceManagement.node.ts')).toEqual([
			`${repo}#operations`,
		]);
		expect(links('nodes/WorkforceManagementTrigger/WorkforceManagementTrigger.node.ts')).toEqual([
			`${repo}#webhooks`,
		]);
		const readmeAnchors = [...read('README.md').matchAll(/^## (.+)$/gm)].map((m) =>
			m[1]
				.toLowerCase()
				.replace(/[^a-z0-9 -]/g, '')
				.replace(/ /g, '-'),
		);
		expect(readmeAnchors).toEqual(
			expect.arrayContaining(['operations', 'credentials', 'webhooks']),
		);
		// no #fragment in the codex: n8n appends its ?utm_… query after the link, so a fragment would never resolve
		const codexLinks = [
			'nodes/WorkforceManagement/WorkforceManagement.node.json',
			'nodes/WorkforceManagementTrigger/WorkforceManagementTrigger.node.json',
		].flatMap(links);
		expect(codexLinks).toHaveLength(4);
		for (const link of codexLinks) expect(link).toBe(repo);
	});
});

describe('release notes gate (.github/scripts/release-notes.mjs)', () => {
	const gate = (tag: string) =>
		spawnSync(process.execPath, [join(ROOT, '.github/scripts/release-notes.mjs'), tag], {
			encoding: 'utf8',
		});

	it("accepts the current version's tag and prints its CHANGELOG section", () => {
		const { version } = packageJson;
		for (const tag of [version, `v${version}`]) {
			const result = gate(tag);
			expect(result.stderr).toBe('');
			expect(result.status).toBe(0);
			expect(result.stdout).toContain(`Release notes for ${version}:`);
		}
	});

	it('keeps the release notes in CHANGELOG.md alone: the README links to it', () => {
		expect(read('README.md')).toContain('](CHANGELOG.md)');
		expect(read('README.md')).not.toMatch(/^- \*\*\d+\.\d+\.\d+\*\*/m);
	});

	it('refuses a tag that is not the version', () => {
		const result = gate('99.0.0');
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('the tag "99.0.0" is not package.json\'s version');
	});

	it('refuses a version whose CHANGELOG.md section is empty', () => {
		const folder = mkdtempSync(join(tmpdir(), 'release-notes-'));
		writeFileSync(join(folder, 'package.json'), JSON.stringify({ version: '0.2.0' }));
		writeFileSync(
			join(folder, 'CHANGELOG.md'),
			'# Changelog\n\n## [0.2.0]\n\n## [0.1.0]\n\n- First.\n',
		);
		const result = spawnSync(
			process.execPath,
			[join(ROOT, '.github/scripts/release-notes.mjs'), '0.2.0'],
			{
				encoding: 'utf8',
				env: { ...process.env, RELEASE_NOTES_ROOT: folder },
			},
		);
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("CHANGELOG.md's section for 0.2.0 is empty");
		rmSync(folder, { recursive: true, force: true });
	});
});
