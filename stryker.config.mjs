// npm run test:mutation: StrykerJS mutates nodes/ and credentials/ and runs the fast tier (unit,
// sandbox and engine suites) against each mutant. Narrow it with
// `npm run test:mutation -- --mutate 'nodes/shared/**/*.ts'`. Not part of npm test.
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	// Stryker's jest runner, running for each mutant only the test files that cover it (see
	// scripts/mutation/jest-by-test-file.mjs): about ten times as many mutants a minute.
	plugins: ['@stryker-mutator/*', './scripts/mutation/jest-by-test-file.mjs'],
	testRunner: 'jest-by-test-file',
	jest: {
		projectType: 'custom',
		configFile: 'jest.config.js',
		config: {
			testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/demo/', '/test/pictures/'],
			testSequencer: '<rootDir>/scripts/mutation/test-file-sequencer.cjs',
		},
		// The engine harness loads the nodes by a computed path, which jest's related-test search
		// cannot follow: without this, no engine test would be run against a mutant.
		enableFindRelatedTests: false,
	},
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	typescriptChecker: { prioritizePerformanceOverAccuracy: true },
	coverageAnalysis: 'perTest',
	mutate: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	ignorePatterns: [
		'dist',
		'test-results',
		'.e2e',
		'.demo',
		'bench/.work',
		'.jest-cache',
		'reports',
	],
	// Outside the repository: n8n-node lint (strict: its eslint config cannot be changed) would
	// otherwise lint the copies Stryker makes of the project.
	tempDirName: join(tmpdir(), `stryker-${basename(process.cwd())}`),
	concurrency: 2,
	// A mutant that makes a test hang (a description the harness cannot load, a retry without
	// end) is cut after 2.5 × the time its tests took unmutated, plus 5 s.
	timeoutMS: 5000,
	timeoutFactor: 2.5,
	// event-recorder writes each mutant's result as it comes, so `npm run test:mutation:scores`
	// gives the scores of what a run has tested even when it is stopped before its end.
	reporters: ['clear-text', 'progress', 'html', 'json', 'event-recorder'],
	eventReporter: { baseDir: 'reports/mutation/events' },
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
};
