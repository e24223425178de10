/**
 * `npm run demo:fault -- 500|503|off`: makes the running demo's sandbox API fail, to see what the
 * nodes and the sign-up form do when the API is down, and makes it answer again. Every API request
 * answers the status (before its key is even read) until `off`; without an argument it says which
 * way the API answers now. It uses the sandbox's fault injection (sandbox/README.md, "Control
 * interface").
 */
import { SandboxRequestError } from '../harness/sandbox-api';
import { SandboxControl } from '../harness/sandbox-control';
import { SIGNUP_PAGES } from './workflows';
import { readDemoState } from './state';

export const FAULT_STATUSES = { 500: 'internal error', 503: 'service unavailable' } as const;
type FaultStatus = keyof typeof FAULT_STATUSES;

/** The sandbox's largest fault: "until off" is this many requests. */
const UNTIL_OFF = 10_000;

const USAGE = [
	'Usage: npm run demo:fault -- 500   every request to the sandbox API answers 500 (internal error)',
	'       npm run demo:fault -- 503   every request answers 503 (service unavailable)',
	'       npm run demo:fault -- off   the API answers as usual again',
].join('\n');

interface PendingFault {
	kind: string;
	status?: number;
	remaining: number;
}

/** How the API answers now, in a sentence; and how many requests a status fault has failed so far. */
function describe(faults: PendingFault[]): { sentence: string; failed: number } {
	const status = faults.find((fault) => fault.kind === 'status');
	if (!status) return { sentence: 'The sandbox API answers as usual.', failed: 0 };
	const failed = UNTIL_OFF - status.remaining;
	return {
		sentence: `The sandbox API answers ${status.status} to every request (${plural(failed, 'request')} so far), until \`npm run demo:fault -- off\`.`,
		failed,
	};
}

async function main(): Promise<void> {
	const argument = process.argv[2];
	if (argument !== undefined && argument !== 'off' && !(argument in FAULT_STATUSES)) {
		throw new Error(`Unknown argument "${argument}".\n${USAGE}`);
	}
	const state = readDemoState();
	const sandbox = new SandboxControl(state.sandboxOrigin, state.target);
	const before = describe((await sandbox.pendingFaults()) as PendingFault[]);

	if (argument === undefined) {
		console.log(`${before.sentence}\n\n${USAGE}`);
		return;
	}
	await sandbox.clearFaults();
	if (argument === 'off') {
		console.log(
			before.failed > 0
				? `The sandbox API answers as usual again (it failed ${plural(before.failed, 'request')}).`
				: 'The sandbox API answers as usual (it was not failing).',
		);
		return;
	}
	const status = Number(argument) as FaultStatus;
	await sandbox.failRequests('/', status, UNTIL_OFF);
	console.log(
		[
			`The sandbox API now answers ${status} (${FAULT_STATUSES[status]}) to every request, until \`npm run demo:fault -- off\`.`,
			'',
			`Try the sign-up form: ${state.signupFormUrl}`,
			`  the page says "${SIGNUP_PAGES.failed.title}", and no member is created;`,
			`  in the editor, the execution is marked Error under Executions: ${state.n8nUrl}/home/executions`,
		].join('\n'),
	);
}

function plural(count: number, one: string): string {
	return `${count} ${one}${count === 1 ? '' : 's'}`;
}

main().catch((error: Error) => {
	console.error(
		error instanceof SandboxRequestError ? (error.apiMessage ?? error.message) : error.message,
	);
	process.exit(1);
});
