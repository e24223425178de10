/**
 * One figure for the first start: README.md quotes the newest line's `installTime`
 * (scripts/n8n/lines.json) for the first `npm start`, and scripts/install-n8n.sh prints a line's
 * own when its first install begins, so the README and the install say the same.
 */
import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PACKAGE_ROOT } from '../../harness/constants';
import { NEWEST_N8N_LINE } from '../../harness/n8n';

let work: string;
beforeEach(() => {
	work = mkdtempSync(join(tmpdir(), 'wfm-install-time-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

test("the README's first npm start takes the newest line's first-install time", () => {
	const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
	const firstStart = readme
		.split('\n')
		.find((line) => line.startsWith(`The first \`npm start\` installs n8n ${NEWEST_N8N_LINE.n8n}`));

	expect(NEWEST_N8N_LINE.installTime).toMatch(/^about \d+ minutes, up to \d+ on a busy machine$/);
	expect(firstStart).toContain(`(2–3 GB, ${NEWEST_N8N_LINE.installTime};`);
});

test("install-n8n.sh announces a first install with its line's installTime", () => {
	// a copy of the scripts whose only line has a lockfile, and an npm that fails at once
	cpSync(join(PACKAGE_ROOT, 'scripts'), join(work, 'scripts'), { recursive: true });
	const line = join(work, 'scripts', 'n8n', '9.9.9');
	mkdirSync(line);
	writeFileSync(join(line, 'package.json'), JSON.stringify({ name: 'n8n-runtime-cache' }));
	writeFileSync(join(line, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3 }));
	const lines = [
		{
			n8n: '9.9.9',
			node: null,
			nodeRange: '>=20',
			ignoreScripts: false,
			rebuild: [],
			installTime: 'about 1 minute, up to 2 on a busy machine',
		},
	];
	writeFileSync(join(work, 'scripts', 'n8n', 'lines.json'), JSON.stringify({ lines }));
	const bin = join(work, 'bin');
	mkdirSync(bin);
	writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm stands in for the test" >&2\nexit 1\n');
	chmodSync(join(bin, 'npm'), 0o755);

	const environment = { ...process.env };
	delete environment.N8N_VERSION; // npm test sets it for the jest run
	const run = spawnSync('/bin/bash', [join(work, 'scripts', 'install-n8n.sh'), '9.9.9'], {
		encoding: 'utf8',
		env: {
			...environment,
			PATH: `${bin}:${process.env.PATH ?? ''}`,
			N8N_CACHE_ROOT: join(work, 'cache'),
		},
	});

	expect(run.status).toBe(1);
	expect(run.stdout).toContain(
		'2-3 GB; the first install takes about 1 minute, up to 2 on a busy machine.',
	);
});
