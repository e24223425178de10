#!/usr/bin/env node
// Checks every relative link in the repository's Markdown files: the file (or folder) must exist,
// and a #fragment must name a heading of that Markdown file, slugged as GitHub slugs headings.
//   node scripts/check-md-links.mjs            all tracked *.md files
//   node scripts/check-md-links.mjs README.md  only these files
// Links to other sites (http:, https:, mailto:) are not fetched. Exits 1 when a link is broken.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

const files = process.argv.slice(2).length
	? process.argv.slice(2).map((file) => resolve(file))
	: execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
			cwd: root,
			encoding: 'utf8',
		})
			.split('\n')
			.filter(Boolean)
			.map((file) => join(root, file))
			.filter((file) => existsSync(file));

/** Text outside fenced code blocks, line by line (links and headings in code are not links). */
function proseLines(text) {
	const lines = [];
	let fence = null;
	for (const line of text.split('\n')) {
		const opener = /^\s*(```+|~~~+)/.exec(line);
		if (opener) {
			if (fence === null) fence = opener[1][0];
			else if (opener[1][0] === fence) fence = null;
			lines.push('');
			continue;
		}
		lines.push(fence === null ? line : '');
	}
	return lines;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchorsOf(file) {
	const seen = new Map();
	const anchors = new Set();
	for (const line of proseLines(readFileSync(file, 'utf8'))) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const text = heading[1]
			.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/<[^>]+>/g, '');
		const base = text
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

const anchorCache = new Map();
function anchors(file) {
	if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(file));
	return anchorCache.get(file);
}

let checked = 0;
const broken = [];
for (const file of files) {
	proseLines(readFileSync(file, 'utf8')).forEach((line, index) => {
		const withoutCode = line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
		for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
			const target = match[1];
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			checked++;
			const [path, fragment] = target.split('#');
			const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
			const where = `${relative(root, file)}:${index + 1}`;
			if (!existsSync(resolved)) {
				broken.push(`${where}: ${target}: no such file`);
				continue;
			}
			if (fragment === undefined || fragment === '') continue;
			if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
				broken.push(`${where}: ${target}: a #fragment on a file that is not Markdown`);
				continue;
			}
			if (!anchors(resolved).has(decodeURIComponent(fragment).toLowerCase())) {
				broken.push(
					`${where}: ${target}: no heading with that anchor in ${relative(root, resolved)}`,
				);
			}
		}
	});
}

for (const line of broken) console.log(line);
console.log(
	`${files.length} Markdown files, ${checked} relative links: ${broken.length ? `${broken.length} broken` : 'all resolve'}`,
);
process.exit(broken.length ? 1 : 0);
