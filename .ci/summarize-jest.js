// Prints CI's closing line from jest's JSON results and exits non-zero on any failure.
//   node .ci/summarize-jest.js <checks.tsv> <npm test's exit status> <jest result>...
// One jest result per run of `npm test` (the fast tier, then each n8n line's end-to-end run); each
// gets a line of its own, and the closing line adds them up.
// A check of `npm test` that failed (build, lint, typecheck, scan, an install) counts as a failure
// too, named on the line before, so the closing line never reads clean over a failed check.
const fs = require('node:fs');
const path = require('node:path');

const [checksPath, testStatusText, ...resultsPaths] = process.argv.slice(2);
const testStatus = Number(testStatusText);

const checks = fs.existsSync(checksPath)
	? fs
			.readFileSync(checksPath, 'utf8')
			.split('\n')
			.map((line) => line.split('\t'))
			.filter(([name]) => name)
	: [];
// the jest runs' own failures are counted from their results below
const isJestRun = (name) => name === 'jest' || name === 'fast' || name.startsWith('e2e-');
const failedChecks = checks
	.filter(([name, result]) => !isJestRun(name) && result !== 'passed')
	.map(([name]) => name);
if (failedChecks.length > 0) console.log(`failed checks of npm test: ${failedChecks.join(', ')}`);

/** The check of `npm test` that wrote a result: jest-fast.json → fast, jest-e2e-2.41.1.json → e2e-2.41.1. */
const seconds = (file) => {
	const name = path.basename(file, '.json').replace(/^jest-/, '');
	const check = checks.find(([checkName]) => checkName === name);
	return check ? ` in ${check[2]} s` : '';
};
const totals = { passed: 0, failed: failedChecks.length, skipped: 0, tests: 0, success: true };
for (const file of resultsPaths) {
	if (!fs.existsSync(file)) {
		console.log(
			`${file}: missing (npm test exited with ${testStatus} before jest wrote it; see above)`,
		);
		totals.failed += 1;
		totals.success = false;
		continue;
	}
	const results = JSON.parse(fs.readFileSync(file, 'utf8'));
	// A suite that fails to load (syntax error, failing beforeAll) has no failed tests of its own.
	const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
	const skipped = results.numPendingTests + results.numTodoTests;
	console.log(
		`${path.basename(file)}: ${results.numPassedTests} passed, ${failed} failed${seconds(file)}`,
	);
	totals.passed += results.numPassedTests;
	totals.failed += failed;
	totals.skipped += skipped;
	totals.tests += results.numTotalTests;
	totals.success &&= results.success;
}
if (resultsPaths.length === 0) totals.failed = Math.max(1, totals.failed);

let line = `${totals.passed} passed, ${totals.failed} failed`;
if (totals.skipped > 0) line += `, ${totals.skipped} skipped`;
console.log(line);
process.exit(
	testStatus !== 0 || totals.failed > 0 || !totals.success || totals.tests === 0 ? 1 : 0,
);
