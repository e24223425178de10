#!/usr/bin/env node
// The tested n8n lines (lines.json) for the shell scripts.
//   node scripts/n8n/line.cjs versions     every tested n8n version, oldest first, one a line
//   node scripts/n8n/line.cjs newest       the newest tested version
//   node scripts/n8n/line.cjs <version>    shell assignments for that version (a version that is
//                                          not a tested line gets the machine's Node, scripts on,
//                                          and no lockfile)
const { readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const { lines } = JSON.parse(readFileSync(join(__dirname, 'lines.json'), 'utf8'));
const [what] = process.argv.slice(2);
/** Whether Node `version` (process.version) satisfies a range of the form `>=20.19 <25`. */
function satisfies(version, range) {
	const parse = (text) => text.replace(/^v/, '').split('.').map(Number);
	const compare = (a, b) => a[0] - b[0] || (a[1] ?? 0) - (b[1] ?? 0) || (a[2] ?? 0) - (b[2] ?? 0);
	return range.split(/\s+/).every((part) => {
		const [, operator, bound] = /^(>=|<)(.+)$/.exec(part) ?? [];
		if (operator === '>=') return compare(parse(version), parse(bound)) >= 0;
		if (operator === '<') return compare(parse(version), parse(bound)) < 0;
		throw new Error(`lines.json: cannot read the Node range part "${part}"`);
	});
}
const quote = (value) => `'${String(value).replace(/'/g, `'\\''`)}'`;

if (what === 'versions') {
	console.log(lines.map((line) => line.n8n).join('\n'));
} else if (what === 'newest') {
	console.log(lines[lines.length - 1].n8n);
} else if (what) {
	const line = lines.find((candidate) => candidate.n8n === what);
	const lockDir = join(__dirname, what);
	const assignments = {
		LINE_TESTED: line ? 'yes' : '',
		LINE_NODE: line?.node ?? '',
		LINE_NODE_RANGE: line?.nodeRange ?? '',
		// only meaningful when LINE_NODE is empty: the machine's Node runs that line
		LINE_MACHINE_NODE_FITS: !line || line.node || satisfies(process.version, line.nodeRange) ? 'yes' : '',
		LINE_IGNORE_SCRIPTS: line?.ignoreScripts ? 'yes' : '',
		LINE_REBUILD: (line?.rebuild ?? []).join(' '),
		// what the first install takes, measured on a fresh machine (README.md quotes the newest line's)
		LINE_INSTALL_TIME: line?.installTime ?? 'several minutes',
		LINE_LOCK_DIR: line && existsSync(join(lockDir, 'package-lock.json')) ? lockDir : '',
	};
	for (const [name, value] of Object.entries(assignments)) console.log(`${name}=${quote(value)}`);
} else {
	console.error('usage: line.cjs versions | newest | <n8n version>');
	process.exit(2);
}
