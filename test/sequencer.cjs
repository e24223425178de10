/**
 * Jest's order of test files, but the slowest end-to-end suites first when jest has no timings of
 * its own (a fresh clone: it would start the largest files first). With two suites at a time
 * (`scripts/test.sh`), a long suite started last leaves one worker idle while it runs alone.
 * The list is ordered by each suite's seconds on n8n 2.41.1 (first-contact, which runs on 2.8.4
 * alone, by its seconds there; docs/maintainers/test-timing.md), but
 * that the three queue-mode suites (four n8n processes, Postgres, Redis each) alternate with lighter
 * ones, so that two of them rarely run at once; a suite not in it keeps jest's order, after them.
 */
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST_FIRST = [
	'test/e2e/queue-balancer.e2e.test.ts',
	'test/pictures/pictures.test.ts',
	'test/e2e/live-workflow.e2e.test.ts',
	'test/e2e/queue-rotation.e2e.test.ts',
	'test/e2e/trigger-restart.e2e.test.ts',
	'test/e2e/queue.e2e.test.ts',
	'test/e2e/trigger.e2e.test.ts',
	'test/demo/signup-form.test.ts',
	'test/e2e/trigger-staging.e2e.test.ts',
	'test/pictures/listen-for-test-event.test.ts',
	'test/e2e/trigger-downtime-recovery.e2e.test.ts',
	'test/demo/demo.test.ts',
	'test/pictures/first-contact.test.ts',
	'test/e2e/actions.e2e.test.ts',
	'test/e2e/install.e2e.test.ts',
	'test/e2e/mcp.e2e.test.ts',
];

class SlowestFirst extends Sequencer {
	sort(tests) {
		const ordered = super.sort(tests);
		if (ordered.every((test) => this.time(test) !== undefined)) return ordered;
		const rank = (test) => {
			const index = SLOWEST_FIRST.findIndex((suffix) => test.path.endsWith(suffix));
			return index === -1 ? SLOWEST_FIRST.length : index;
		};
		return [...ordered].sort((left, right) => rank(left) - rank(right));
	}
}

module.exports = SlowestFirst;
