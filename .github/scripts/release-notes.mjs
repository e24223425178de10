#!/usr/bin/env node
// Usage: node .github/scripts/release-notes.mjs <tag>
// The publish workflow's gate before `npm run release`: the pushed tag must be package.json's
// version (bare, as release-it tags it, or with a leading "v") and CHANGELOG.md, the one home of the
// release notes, must have a non-empty section "## [<version>]". Prints that section; exits 1 with
// the reason otherwise.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root =
	process.env.RELEASE_NOTES_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tag = process.argv[2] ?? '';
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const problems = [];

if (tag !== version && tag !== `v${version}`) {
	problems.push(`the tag "${tag}" is not package.json's version ${version}`);
}

const escaped = version.replace(/[.+-]/g, '\\$&');
const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
const section = new RegExp(
	`^## \\[${escaped}\\][^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`,
	'm',
).exec(changelog);
if (!section) problems.push(`CHANGELOG.md has no "## [${version}]" section`);
else if (section[1].trim() === '') problems.push(`CHANGELOG.md's section for ${version} is empty`);

if (problems.length > 0) {
	console.error(`Not releasing ${tag}:\n- ${problems.join('\n- ')}`);
	process.exit(1);
}
console.log(`Release notes for ${version}:\n\n${section[1].trim()}`);
