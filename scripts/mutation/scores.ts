/**
 * `npm run test:mutation:scores [-- --survivors] [events folder ...]`: mutation scores per file and
 * folder from the mutants StrykerJS has tested so far. The event-recorder reporter writes each
 * result as it comes (reports/mutation/events), so a run stopped before its end still gives the
 * scores of what it tested, next to how many mutants each file had in the plan.
 *
 * Given several folders, oldest run first, a file's figures come from the last run that planned
 * it: re-running the files whose code or tests changed updates their rows and leaves the others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { PACKAGE_ROOT } from '../../harness/constants';

interface MutantResult {
	fileName: string;
	status: string;
	mutatorName: string;
	replacement?: string;
	location: { start: { line: number; column: number } };
}

const DETECTED = ['Killed', 'Timeout'];
/** Stryker's score leaves out mutants that did not compile or were ignored. */
const COUNTED = [...DETECTED, 'Survived', 'NoCoverage'];

function readEvents(folder: string, kind: string): unknown[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith(`-${kind}.json`))
		.map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown);
}

const projectPath = (fileName: string) =>
	relative(PACKAGE_ROOT, fileName).replace(/^.*?(?=nodes\/|credentials\/)/, '');
const percent = (detected: number, counted: number) =>
	counted === 0 ? '–' : `${((100 * detected) / counted).toFixed(1)} %`;

interface FileRun {
	planned: number;
	results: MutantResult[];
}

/** Each file's mutants in one run: how many were planned and the results so far. */
function readRun(folder: string): Map<string, FileRun> {
	const files = new Map<string, FileRun>();
	const fileRun = (fileName: string) => {
		const file = projectPath(fileName);
		const run = files.get(file) ?? { planned: 0, results: [] };
		files.set(file, run);
		return run;
	};
	for (const plan of readEvents(folder, 'onMutationTestingPlanReady') as Array<{
		mutantPlans: Array<{ mutant: { fileName: string } }>;
	}>) {
		for (const { mutant } of plan.mutantPlans) fileRun(mutant.fileName).planned++;
	}
	for (const result of readEvents(folder, 'onMutantTested') as MutantResult[]) {
		fileRun(result.fileName).results.push(result);
	}
	return files;
}

function main(): void {
	const args = process.argv.slice(2);
	const showSurvivors = args.includes('--survivors');
	const folders = args.filter((arg) => !arg.startsWith('--'));
	if (folders.length === 0) folders.push(join(PACKAGE_ROOT, 'reports', 'mutation', 'events'));
	const runs = new Map<string, FileRun>();
	for (const folder of folders) {
		for (const [file, run] of readRun(folder)) runs.set(file, run);
	}
	const sums = new Map<
		string,
		{ detected: number; counted: number; tested: number; planned: number }
	>();
	console.log('| file | score | detected / counted | tested of planned | survived | no coverage |');
	console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
	const files = [...runs].sort(([a], [b]) => a.localeCompare(b));
	for (const [file, { planned, results }] of files) {
		const counted = results.filter((result) => COUNTED.includes(result.status));
		const detected = counted.filter((result) => DETECTED.includes(result.status)).length;
		const count = (status: string) => results.filter((result) => result.status === status).length;
		console.log(
			`| \`${file}\` | ${percent(detected, counted.length)} | ${detected} / ${counted.length} | ${results.length} of ${planned} | ${count('Survived')} | ${count('NoCoverage')} |`,
		);
		// nodes/<node> per node; credentials/ as one folder
		const parts = file.split('/');
		const name = parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0];
		const sum = sums.get(name) ?? { detected: 0, counted: 0, tested: 0, planned: 0 };
		sums.set(name, {
			detected: sum.detected + detected,
			counted: sum.counted + counted.length,
			tested: sum.tested + results.length,
			planned: sum.planned + planned,
		});
	}
	for (const [name, sum] of sums) {
		console.log(
			`| **\`${name}\`** | **${percent(sum.detected, sum.counted)}** | ${sum.detected} / ${sum.counted} | ${sum.tested} of ${sum.planned} | | |`,
		);
	}
	if (!showSurvivors) return;
	for (const [file, { results }] of files) {
		const survivors = results
			.filter((result) => result.status === 'Survived' || result.status === 'NoCoverage')
			.sort((a, b) => a.location.start.line - b.location.start.line);
		for (const mutant of survivors) {
			const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 90);
			console.log(
				`${file}:${mutant.location.start.line} ${mutant.status} ${mutant.mutatorName} → ${replacement}`,
			);
		}
	}
}

main();
