/** The parts of README.md that tests hold against what the code prints. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_ROOT } from './constants';

/** The README's copy of what `npm start` prints once it is ready: the fenced block that opens with it. */
export function readmeDemoBanner(firstLine: string): string {
	const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
	const blocks = [...readme.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
	const banner = blocks.find((block) => block.startsWith(firstLine));
	if (banner === undefined)
		throw new Error(`README.md has no code block opening with "${firstLine}"`);
	return banner.trimEnd();
}
