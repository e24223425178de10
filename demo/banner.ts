/**
 * What `npm start` prints once the demo is ready. A pure function of what the start produced, so
 * that the README's copy of it can be checked against it without starting n8n
 * (test/unit/readme-demo-banner.test.ts).
 */
import type { N8nLine } from '../harness/n8n/launch';
import type { EditorWords } from './editor-words';

export interface DemoBannerFacts {
	/** e.g. "n8n 2.41.1 on Node 24.11.1, the newest tested line (also: npm start -- --n8n 2.8.4)" */
	runtime: string;
	n8nUrl: string;
	login: { email: string; password: string };
	signupFormUrl: string;
	sandboxBaseUrl: string;
	apiKey: string;
	credentialName: string;
	seeded: { members: number; customers: number; sites: number };
	words: EditorWords;
	/** Lines about the queue-mode processes, when the demo runs in queue mode. */
	queueLines?: string[];
	n8nLog: string;
}

/**
 * "n8n 2.41.1 on Node 24.11.1, the newest tested line (also: npm start -- --n8n 2.8.4)": the line
 * the demo runs and how to start the other tested ones. `node` is the Node it runs on.
 */
export function runtimeLine(line: N8nLine, node: string, testedLines: readonly N8nLine[]): string {
	const runtime = `n8n ${line.n8n} on Node ${node}`;
	const others = testedLines.filter((other) => other.n8n !== line.n8n);
	if (others.length === 0) return runtime;
	const newest = line === testedLines[testedLines.length - 1];
	const commands = others.map((other) => `npm start -- --n8n ${other.n8n}`).join(', ');
	return `${runtime}, ${newest ? 'the newest tested line' : 'an older line'} (also: ${commands})`;
}

export const DEMO_READY_LINE = 'Press Ctrl-C to stop.';

export function demoBanner(facts: DemoBannerFacts): string {
	const { words, seeded } = facts;
	return [
		'Workforce Management demo is running (everything on 127.0.0.1, nothing leaves this machine).',
		'',
		`  n8n            ${facts.runtime}`,
		`  n8n editor     ${facts.n8nUrl}`,
		`  login          ${facts.login.email} / ${facts.login.password}`,
		`  sign-up form   ${facts.signupFormUrl}  (creates a member through the node, then says how it went)`,
		`  sandbox API    ${facts.sandboxBaseUrl}  (key ${facts.apiKey}, credential "${facts.credentialName}")`,
		`  organization   Acme Staffing (sandbox): ${seeded.members} members, ${seeded.customers} customers, ${seeded.sites} sites`,
		...(facts.queueLines ?? []),
		'',
		`  Workflows (in the editor under ${words.workflowsPage}):`,
		'             "Sign-up form → create member", "On timesheet approved → summary" and',
		'             "On timesheet approved → member and customer" (Published),',
		'             "On member created → verify member" (not published, to explore)',
		'',
		'  Emit an event into the demo:   npm run demo:emit -- timesheet.approved',
		'  Make the API fail:             npm run demo:fault -- 500   (undo: npm run demo:fault -- off)',
		`  n8n's log:                     ${facts.n8nLog}`,
		'',
		DEMO_READY_LINE,
	].join('\n');
}
