// Jest's default test order, narrowed during a mutation run to the test files that
// jest-by-test-file.mjs names for the mutant under test (all files when it names none).
const Sequencer = require('@jest/test-sequencer').default;

class TestFileSequencer extends Sequencer {
	sort(tests) {
		const selected = process.env.WFM_MUTANT_TEST_FILES;
		if (selected === undefined) return super.sort(tests);
		const files = new Set(JSON.parse(selected));
		return super.sort(tests.filter((test) => files.has(test.path)));
	}
}

module.exports = TestFileSequencer;
