// Prints CI's closing line from jest's JSON result and exits non-zero on any failure.
// A check of `npm test` that failed (build, lint, typecheck, scan, an install) counts as a failure
// too, named on the line before, so the closing line never reads clean over a failed check.
const fs = require('node:fs');

const [resultsPath, checksPath, testStatusText] = process.argv.slice(2);
const testStatus = Number(testStatusText);

const failedChecks = fs.existsSync(checksPath)
	? fs
			.readFileSync(checksPath, 'utf8')
			.split('\n')
			.map((line) => line.split('\t'))
			.filter(([name, result]) => name && result !== 'passed')
			.map(([name]) => name)
	: [];
if (failedChecks.length > 0) console.log(`failed checks of npm test: ${failedChecks.join(', ')}`);

if (!fs.existsSync(resultsPath)) {
	console.log(`npm test exited with ${testStatus} before jest wrote ${resultsPath} (see above)`);
	console.log(`0 passed, ${Math.max(1, failedChecks.length)} failed`);
	process.exit(1);
}

const results = JSON.parse(fs.readFileSync(resultsPath, 'utf8'));
// A suite that fails to load (syntax error, failing beforeAll) has no failed tests of its own.
const failed = results.numFailedTests + results.numRuntimeErrorTestSuites + failedChecks.length;
const skipped = results.numPendingTests + results.numTodoTests;
let line = `${results.numPassedTests} passed, ${failed} failed`;
if (skipped > 0) line += `, ${skipped} skipped`;
console.log(line);
process.exit(testStatus !== 0 || failed > 0 || !results.success || results.numTotalTests === 0 ? 1 : 0);
