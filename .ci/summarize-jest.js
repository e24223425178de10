// Prints CI's closing line from jest's JSON result and exits non-zero on any failure.
const fs = require('node:fs');

const [resultsPath, testStatusText] = process.argv.slice(2);
const testStatus = Number(testStatusText);

if (!fs.existsSync(resultsPath)) {
	console.log(`npm test exited with ${testStatus} before jest wrote ${resultsPath} (build, lint, typecheck, scan or n8n install failed: see above)`);
	console.log('0 passed, 1 failed');
	process.exit(1);
}

const results = JSON.parse(fs.readFileSync(resultsPath, 'utf8'));
// A suite that fails to load (syntax error, failing beforeAll) has no failed tests of its own.
const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
const skipped = results.numPendingTests + results.numTodoTests;
let line = `${results.numPassedTests} passed, ${failed} failed`;
if (skipped > 0) line += `, ${skipped} skipped`;
console.log(line);
process.exit(testStatus !== 0 || failed > 0 || !results.success || results.numTotalTests === 0 ? 1 : 0);
