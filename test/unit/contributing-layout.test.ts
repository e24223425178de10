/**
 * CONTRIBUTING.md's Layout is where a reader finds the home of a thing under nodes/; this keeps it
 * true as code is added and moved.
 *
 * How the layout is read. In the code block under "## Layout", an entry is a line indented less
 * than 16 spaces whose first column (up to the first two spaces) is one or more paths separated
 * by ", " (`api.ts`, `actions/router.ts`, `secretRepair.ts, secretRepairDecision.ts`); lines
 * indented further continue a description. An entry's paths are relative to the nearest folder
 * entry above it with less indentation (`  api.ts` under `nodes/shared/`). `<resource>` stands for
 * each resource of the action node's registry, `<op>` for each of that resource's operations (by
 * value): `actions/<resource>/<op>.ts` names the operation files and nothing else.
 *
 * The rule, strict where a reader would be misled and no stricter:
 * - every folder under nodes/ is named, as an entry or as part of an entry's path;
 * - every .ts file under nodes/ is named by an entry, unless its folder's entry has no entries
 *   under it: a folder described as a whole (`transport/`, `methods/`, `actions/common/`) names the
 *   files directly in it, not the folders inside it;
 * - every entry under nodes/ names something that exists, so an entry a move left behind fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

import { resources } from '../../nodes/WorkforceManagement/actions/resources';
import { PACKAGE_ROOT } from '../../harness/constants';

/** Deeper than any entry of the layout, shallower than the descriptions' continuation lines. */
const ENTRY_MAX_INDENT = 16;
const PATH = /^[\w.<>-]+(\/[\w.<>-]+)*\/?$/;

interface Entry {
	path: string;
	/** Whether other entries sit under this (folder) entry. */
	hasChildren: boolean;
}

function layoutBlock(): string[] {
	const text = readFileSync(join(PACKAGE_ROOT, 'CONTRIBUTING.md'), 'utf8');
	const section = text.slice(text.indexOf('\n## Layout\n'));
	const block = /\n```\n([\s\S]*?)\n```/.exec(section);
	if (!block) throw new Error('CONTRIBUTING.md has no code block under "## Layout"');
	return block[1].split('\n');
}

function layoutEntries(): Entry[] {
	const entries: Entry[] = [];
	const parents: Array<{ indent: number; entry: Entry }> = [];
	for (const line of layoutBlock()) {
		const indent = line.length - line.trimStart().length;
		const names = line.trim().split(/ {2,}/)[0].split(', ');
		if (indent >= ENTRY_MAX_INDENT || !names.every((name) => PATH.test(name))) continue;
		while (parents.length > 0 && parents[parents.length - 1].indent >= indent) parents.pop();
		const parent = parents[parents.length - 1]?.entry;
		if (parent) parent.hasChildren = true;
		for (const name of names) {
			const entry = { path: parent ? posix.join(parent.path, name) : name, hasChildren: false };
			entries.push(entry);
			if (name.endsWith('/')) parents.push({ indent, entry });
		}
	}
	return entries;
}

/** A path with its placeholders replaced by every name they stand for. */
function expand(path: string): string[] {
	if (!path.includes('<')) return [path];
	if (!path.includes('<resource>')) {
		throw new Error(`"${path}": say in this test what its placeholder stands for`);
	}
	return Object.entries(resources).flatMap(([resource, { operations }]) => {
		const withResource = path.replaceAll('<resource>', resource);
		const paths = withResource.includes('<op>')
			? operations.map((operation) => withResource.replaceAll('<op>', operation.option.value))
			: [withResource];
		return paths.flatMap(expand);
	});
}

function filesUnder(folder: string): { folders: string[]; files: string[] } {
	const found = { folders: [] as string[], files: [] as string[] };
	for (const item of readdirSync(join(PACKAGE_ROOT, folder), { withFileTypes: true })) {
		const path = `${folder}${item.name}`;
		if (item.isDirectory()) {
			const inside = filesUnder(`${path}/`);
			found.folders.push(`${path}/`, ...inside.folders);
			found.files.push(...inside.files);
		} else if (item.name.endsWith('.ts')) {
			found.files.push(path);
		}
	}
	return found;
}

const entries = layoutEntries();
const named = new Set(entries.flatMap((entry) => expand(entry.path)));
const namedFolders = new Set(
	[...named].flatMap((path) =>
		path
			.split('/')
			.slice(0, -1)
			.map((_, index, parts) => `${parts.slice(0, index + 1).join('/')}/`),
	),
);
const describedWhole = new Set(
	entries
		.filter((entry) => entry.path.endsWith('/') && !entry.hasChildren)
		.flatMap((entry) => expand(entry.path)),
);
const { folders, files } = filesUnder('nodes/');

function folderOf(file: string): string {
	return file.slice(0, file.lastIndexOf('/') + 1);
}

const unnamedFiles = files.filter(
	(file) => !named.has(file) && !describedWhole.has(folderOf(file)),
);

describe("CONTRIBUTING.md's layout", () => {
	it('is read as entries, nested by indentation, with the action node and shared folders in it', () => {
		expect(named).toContain('nodes/shared/api.ts');
		expect(named).toContain('nodes/WorkforceManagement/actions/member/getAll.ts');
		expect(named).not.toContain('nodes/WorkforceManagement/actions/common/getAll.ts');
		expect(describedWhole).toContain('nodes/shared/transport/');
		expect(describedWhole).not.toContain('nodes/shared/');
	});

	it('names every folder under nodes/', () => {
		expect(folders.filter((folder) => !namedFolders.has(folder))).toEqual([]);
	});

	it('names every .ts file under nodes/, or its folder as a whole', () => {
		expect(unnamedFiles).toEqual([]);
	});

	it('names nothing under nodes/ that is not there', () => {
		const existing = new Set([...folders, ...files]);
		const stale = entries
			.filter((entry) => entry.path.startsWith('nodes/'))
			.filter((entry) => !expand(entry.path).some((path) => existing.has(path)))
			.map((entry) => entry.path);
		expect(stale).toEqual([]);
	});
});
