/**
 * StrykerJS test runner `jest-by-test-file`: Stryker's jest runner, except that a mutant runs only
 * the test files that hold the tests covering it.
 *
 * Stryker's jest runner filters the tests of a mutant by name alone (`--testNamePattern`), so jest
 * still loads every test file of the tier for each mutant: about 35 s here before the first test
 * runs, most of it the engine suites importing n8n-core. Jest's related-test search cannot narrow
 * it either: the engine harness loads the nodes by a computed path.
 *
 * The dry run reports the file of every test. This runner keeps that map in the sandbox (the
 * mutant runs happen in other worker processes) and, for each mutant, hands the covering files to
 * `test-file-sequencer.cjs` through an environment variable: the sequencer drops the other files.
 * The test name filter still applies within those files, so the same tests run as without it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { strykerPlugins as jestPlugins } from '@stryker-mutator/jest-runner';

/** Read by test-file-sequencer.cjs in the same process. */
export const TEST_FILES_ENV = 'WFM_MUTANT_TEST_FILES';
/** In the sandbox: a worker process changes into it after it has loaded this module. */
const mapFile = () => join(process.cwd(), '.stryker-test-files.json');

function jestRunnerBySelectedFiles(injector) {
	const jest = injector.injectFunction(jestPlugins[0].factory);
	let filesByTest;

	const testFilesOf = (testIds) => {
		filesByTest ??= new Map(Object.entries(JSON.parse(readFileSync(mapFile(), 'utf8'))));
		const files = new Set();
		for (const id of testIds) {
			const ofTest = filesByTest.get(id);
			if (!ofTest) return undefined; // a test the dry run did not see: run every file
			for (const file of ofTest) files.add(file);
		}
		return [...files];
	};

	return {
		capabilities: () => jest.capabilities(),
		init: () => jest.init?.(),
		dispose: () => jest.dispose?.(),
		async dryRun(options) {
			const result = await jest.dryRun(options);
			if (result.status === 'complete') {
				const map = {};
				for (const test of result.tests) (map[test.id] ??= []).push(test.fileName);
				writeFileSync(mapFile(), JSON.stringify(map));
			}
			return result;
		},
		async mutantRun(options) {
			const files = options.testFilter && testFilesOf(options.testFilter);
			if (files) process.env[TEST_FILES_ENV] = JSON.stringify(files);
			try {
				return await jest.mutantRun(options);
			} finally {
				delete process.env[TEST_FILES_ENV];
			}
		},
	};
}
jestRunnerBySelectedFiles.inject = tokens(commonTokens.injector);

export const strykerPlugins = [
	declareFactoryPlugin(PluginKind.TestRunner, 'jest-by-test-file', jestRunnerBySelectedFiles),
];
