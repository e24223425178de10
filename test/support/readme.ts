/** The parts of README.md that tests hold against what the code prints or runs. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_ROOT } from '../../harness/constants';

/** The README's fenced code blocks, each without the indentation of a list item it sits in. */
function readmeCodeBlocks(): string[] {
	const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
	return [...readme.matchAll(/^( *)```[a-z]*\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
		body
			.split('\n')
			.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
			.join('\n')
			.trimEnd(),
	);
}

/** The README's code block that opens with `firstLine`. */
export function readmeCodeBlock(firstLine: string): string {
	const block = readmeCodeBlocks().find((candidate) => candidate.startsWith(firstLine));
	if (block === undefined)
		throw new Error(`README.md has no code block opening with "${firstLine}"`);
	return block;
}
