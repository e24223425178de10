/**
 * n8n's community-package scanner, offline. `@n8n/scan-community-package` only scans published
 * packages (it downloads them and their provenance-attested source), so this runs the same
 * analysis it runs there on what we would publish: the `npm pack` tarball (compiled `.js` and
 * package.json) and the source folders (`nodes/`, `credentials/`, package.json).
 * Run after `npm run build`. Exits 1 on any finding.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

if (!existsSync(join(projectRoot, 'dist'))) {
	console.error('dist/ is missing: run `npm run build` before the scan.');
	process.exit(1);
}

const workDir = mkdtempSync(join(tmpdir(), 'wfm-scan-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], {
			cwd: projectRoot,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	execFileSync('tar', ['-xzf', join(workDir, packed.filename), '-C', workDir]);
	const packageDir = join(workDir, 'package');
	console.log(`Packed ${packed.filename}: ${packed.entryCount} files, ${packed.size} bytes`);

	const legs = [
		['tarball', await analyzePackage(packageDir, ['**/*.js', 'package.json'])],
		['source', await analyzePackage(projectRoot, SOURCE_FILE_PATTERNS)],
	];
	let passed = true;
	for (const [leg, result] of legs) {
		console.log(`${result.passed ? 'passed' : 'FAILED'}: ${leg}${result.message ? ` (${result.message})` : ''}`);
		if (result.details) console.log(result.details);
		passed &&= result.passed;
	}
	process.exitCode = passed ? 0 : 1;
} finally {
	rmSync(workDir, { recursive: true, force: true });
}
