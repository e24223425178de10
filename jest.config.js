/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	cacheDirectory: '<rootDir>/.jest-cache',
	testTimeout: 60_000,
	testSequencer: '<rootDir>/test/sequencer.cjs',
};
