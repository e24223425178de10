// Lint for the sandbox, the tests, the demo and the benchmarks: Node programs, not community-node
// code, so n8n's community-node rules (no fs, no process, no timers) do not apply here. The
// package's own code (nodes/, credentials/) keeps the root config: `npm run lint` looks up the
// config per file, and the eslint.config.mjs of test/, harness/, sandbox/, demo/, bench/ and
// scripts/ each re-export this one.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
	{ ignores: ['**/*.js', '**/*.mjs'] },
);
