/**
 * The trigger in an "n8n" that the sandbox can really deliver to: an HTTP server on 127.0.0.1
 * standing in for n8n's webhook routes (`/webhook/<id>/<path>` while the workflow is active,
 * `/webhook-test/<id>/<path>` while "Listen for test event" runs). It handles a request the way
 * n8n 2.8.4's webhook helpers do (2.36+'s reset of the static data's change flag on request:
 * `resetsChangeFlagAtRunStart`): the raw body on `request.rawBody`, the parsed JSON on
 * `request.body`, `webhook()` run through n8n-core's WebhookContext, then
 * - `noWebhookResponse`: the node answered itself, nothing more is sent and no execution starts;
 * - no `workflowData`: `webhookResponse` (or n8n's default message) is sent, no execution starts;
 * - `workflowData`: answered at once (responseMode `onReceived`, body from the declared
 *   `responseData`), and the workflow runs through WorkflowExecute from the trigger node.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INodeExecutionData, IWebhookResponseData, Workflow } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import type { DeepPartialConfig } from '../../../sandbox';
import { closeServer, listenOnLoopback } from '../loopback-server';
import { SandboxControl } from '../../../harness/sandbox-control';
import { useSandbox } from '../sandbox-fixture';
import type { SandboxFixture } from '../sandbox-fixture';
import { CREDENTIAL_TYPE } from '../../../harness/constants';
import { credentialsHelper } from './harness';
import type { WorkforceCredentials } from './harness';
import { TriggerHarness } from './trigger-harness';
import type { TriggerHarnessOptions, WorkflowRow } from './trigger-harness';

process.env.NO_PROXY = '127.0.0.1,localhost';
process.env.no_proxy = '127.0.0.1,localhost';

/** Stands in for the database writes n8n makes between loading static data and saving it. */
const DATABASE_ROUND_TRIP_MS = 25;

/** Stands in for n8n's write of static data, issued before it answers and awaited. */
const DATABASE_WRITE_MS = 10;

/** What the receiver recorded for one HTTP request to a trigger URL. */
export interface TriggerRequest {
	path: string;
	signatureHeader?: string;
	/** The raw body, as received (empty when the receiver answered before reading it). */
	body: string;
	status: number;
	responseBody: string;
	/** Items of the execution this request started; `undefined` when it started none. */
	execution?: INodeExecutionData[];
}

export type LiveTriggerOptions = TriggerHarnessOptions;

/** A trigger node of one workflow, served by a {@link TriggerReceiver}. */
export class LiveTrigger extends TriggerHarness {
	readonly received: TriggerRequest[] = [];

	/** The receiver answers this many next requests with 503 before n8n sees them (n8n down). */
	unavailableFor = 0;

	/** The receiver runs the node, then answers this many requests with 504 (a proxy timed out). */
	responseLostFor = 0;

	/**
	 * The receiver runs the node, then n8n fails to start the execution for this many requests: it
	 * answers 500 and saves no static data, as n8n does when creating the execution fails.
	 */
	executionStartFailsFor = 0;

	/**
	 * The receiver runs the node, then n8n's start of the execution outlasts the client (a database
	 * that keeps `WorkflowRunner.run` waiting): it waits until the client has closed the connection,
	 * then fails to start the execution, for this many requests.
	 */
	executionStartOutlastsClientFor = 0;

	/**
	 * The receiver starts executions as n8n 2.36+ does: the static data's change flag is reset
	 * between `webhook()` and the save ({@link TriggerHarness.establishContextForPersistence}).
	 */
	resetsChangeFlagAtRunStart = false;

	constructor(readonly options: LiveTriggerOptions) {
		super(options);
	}

	/** Edits the node's credential, as a user does in n8n (e.g. after rotating the API key). */
	updateCredential(changes: Partial<WorkforceCredentials>): void {
		if (!this.options.credentials) throw new Error('The trigger has no credential');
		this.options.credentials = { ...this.options.credentials, ...changes };
		const reference = this.node.credentials?.[CREDENTIAL_TYPE];
		credentialsHelper.editCredentials(reference?.id ?? '', changes);
	}

	private savesHeld?: { gate: Promise<void>; release: () => void };

	private readonly inProgress = new Set<Promise<void>>();

	/**
	 * Holds this process's saves of static data (a slow database write) until
	 * {@link releaseSaves}, so that saves of several webhook processes land in the order a test
	 * chooses.
	 */
	holdSaves(): void {
		let release = () => {};
		const gate = new Promise<void>((resolve) => {
			release = resolve;
		});
		this.savesHeld = { gate, release };
	}

	/** Lets held saves go, and resolves once every request of this process is done and saved. */
	async releaseSaves(): Promise<void> {
		this.savesHeld?.release();
		this.savesHeld = undefined;
		while (this.inProgress.size > 0) await Promise.all([...this.inProgress]);
	}

	/** Saves a request's static data as n8n does, once any hold is released. */
	async save(loaded: Workflow): Promise<void> {
		await this.savesHeld?.gate;
		// n8n serializes static data as it issues the write, and answers once the write is done
		const issued = this.copyOfChanged(loaded);
		await new Promise((resolve) => setTimeout(resolve, DATABASE_WRITE_MS));
		if (issued) this.saveStaticData(issued);
	}

	/** Counts a request as in progress until `handling` settles. */
	track(handling: Promise<void>): Promise<void> {
		const tracked = handling.finally(() => this.inProgress.delete(tracked));
		this.inProgress.add(tracked);
		return tracked;
	}

	/** Executions started so far, each as the items the trigger node output. */
	get executions(): INodeExecutionData[][] {
		return this.received.flatMap((delivery) => (delivery.execution ? [delivery.execution] : []));
	}
}

/** How many times each event (envelope id) ran, over the given processes of a trigger. */
export function runsPerEvent(triggers: LiveTrigger[]): number[] {
	const runs = new Map<string, number>();
	for (const execution of triggers.flatMap((trigger) => trigger.executions)) {
		const id = String(execution[0].json.id);
		runs.set(id, (runs.get(id) ?? 0) + 1);
	}
	return [...runs.values()];
}

/** A copy of `value` as n8n's database gives it back (through JSON). */
export function jsonCopy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** Runs the workflow from the trigger node with the items `webhook()` returned, as n8n does. */
async function runTriggeredWorkflow(
	trigger: LiveTrigger,
	workflowData: INodeExecutionData[][],
): Promise<INodeExecutionData[]> {
	const executionId = randomUUID();
	const additionalData = { ...trigger.additionalData, executionId };
	additionalData.hooks = new ExecutionLifecycleHooks(trigger.mode, executionId, {
		id: trigger.workflow.id,
		name: trigger.workflow.name,
		nodes: [trigger.node],
		connections: {},
		active: true,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: trigger.node, data: { main: workflowData }, source: null }],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		trigger.mode,
		runExecutionData,
	).processRunExecutionData(trigger.workflow);
	if (run.data.resultData.error) throw new Error(run.data.resultData.error.message);
	return run.data.resultData.runData[trigger.node.name]?.[0]?.data?.main?.[0] ?? [];
}

/** The body n8n sends for responseMode `onReceived` once an execution started. */
function onReceivedBody(trigger: LiveTrigger): string | undefined {
	const declared = trigger.webhookData().webhookDescription.responseData ?? 'firstEntryJson';
	return declared === 'noData' ? undefined : String(declared);
}

function send(response: ServerResponse, status: number, body: unknown): void {
	if (body === undefined) {
		response.writeHead(status).end();
	} else if (typeof body === 'string') {
		response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
	} else {
		response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
	}
}

/** An HTTP server on 127.0.0.1 that routes webhook calls to the triggers created on it. */
export class TriggerReceiver {
	/** Per webhook path, the processes serving it, taken in turn (round robin, as a balancer does). */
	private readonly routes = new Map<string, { processes: LiveTrigger[]; next: number }>();

	private readonly server: Server = createServer((request, response) => {
		this.handle(request, response).catch((error: Error) => {
			if (!response.headersSent) send(response, 500, { message: error.message });
		});
	});

	origin = '';

	static async start(): Promise<TriggerReceiver> {
		const receiver = new TriggerReceiver();
		receiver.origin = await listenOnLoopback(receiver.server);
		return receiver;
	}

	/** A trigger whose webhook URLs point at this receiver; it receives once it is activated. */
	trigger(options: LiveTriggerOptions): LiveTrigger {
		const trigger = new LiveTrigger({ ...options, webhookBaseUrl: this.origin });
		this.routes.set(new URL(trigger.webhookUrl()).pathname, { processes: [trigger], next: 0 });
		return trigger;
	}

	/** A trigger on this receiver, activated as n8n activates a published workflow's trigger. */
	async activeTrigger(options: LiveTriggerOptions): Promise<LiveTrigger> {
		const trigger = this.trigger(options);
		await trigger.activate();
		return trigger;
	}

	/**
	 * The same trigger after an n8n restart: same workflow, node and webhook id, the static data
	 * given (round-tripped through JSON as n8n's database stores it), and a new process: nothing the
	 * node kept in memory survives.
	 */
	restart(previous: LiveTrigger, staticData: IDataObject): LiveTrigger {
		return this.trigger(this.sameTriggerInFreshProcess(previous, staticData));
	}

	/**
	 * The same trigger served by `count` webhook processes (n8n's queue mode), each a fresh process,
	 * behind one URL that hands requests to them in turn. They share one workflow row: each request
	 * loads static data from it and saves it back whole, with no lock, so the last save wins.
	 */
	webhookProcesses(previous: LiveTrigger, count: number): LiveTrigger[] {
		const row: WorkflowRow = { staticData: jsonCopy(previous.staticData) };
		const processes = Array.from(
			{ length: count },
			() =>
				new LiveTrigger({
					...this.sameTriggerInFreshProcess(previous, row.staticData),
					webhookBaseUrl: this.origin,
					row,
				}),
		);
		this.routes.set(new URL(processes[0].webhookUrl()).pathname, { processes, next: 0 });
		return processes;
	}

	private sameTriggerInFreshProcess(
		previous: LiveTrigger,
		staticData: IDataObject,
	): LiveTriggerOptions {
		return {
			...previous.options,
			freshProcess: true,
			workflowId: previous.workflow.id,
			nodeId: previous.node.id,
			webhookId: previous.node.webhookId,
			parameters: jsonCopy(previous.node.parameters),
			staticData: jsonCopy(staticData),
		};
	}

	/**
	 * "Listen for test event" on a published workflow, as n8n 2.8 does it: production's workflow
	 * id, node id and webhook id, the `/webhook-test/` URL, static data of its own (n8n starts the
	 * test registration from the editor's workflow, which carries none).
	 */
	testListener(production: LiveTrigger): LiveTrigger {
		return this.trigger({
			...production.options,
			workflowId: production.workflow.id,
			nodeId: production.node.id,
			webhookId: production.node.webhookId,
			parameters: jsonCopy(production.node.parameters),
			staticData: {},
			isTest: true,
		});
	}

	async close(): Promise<void> {
		await closeServer(this.server);
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? '/', this.origin).pathname;
		const route = this.routes.get(path);
		const trigger = route?.processes[route.next++ % route.processes.length];
		if (!trigger || request.method !== 'POST') {
			send(response, 404, { code: 404, message: 'The requested webhook is not registered.' });
			return;
		}
		await trigger.track(this.serve(trigger, path, request, response));
	}

	private async serve(
		trigger: LiveTrigger,
		path: string,
		request: IncomingMessage,
		response: ServerResponse,
	): Promise<void> {
		const delivery: TriggerRequest = {
			path,
			signatureHeader: request.headers['x-webhook-signature'] as string | undefined,
			body: '',
			status: 0,
			responseBody: '',
		};
		trigger.received.push(delivery);
		const respond = (status: number, body: unknown) => {
			delivery.status = status;
			delivery.responseBody = body === undefined ? '' : JSON.stringify(body);
			send(response, status, body);
		};

		if (trigger.unavailableFor > 0) {
			trigger.unavailableFor--;
			respond(503, { message: 'n8n is starting' });
			return;
		}

		// as n8n's live-webhook service: static data loaded per request, saved after the run started
		const loaded = trigger.loadForRequest();
		const rawBody = await readBody(request);
		delivery.body = rawBody.toString('utf8');
		const webhookRequest = Object.assign(request, {
			rawBody,
			body: request.headers['content-type']?.startsWith('application/json')
				? JSON.parse(rawBody.toString('utf8'))
				: {},
		});
		const result: IWebhookResponseData = await trigger.runWebhook(webhookRequest, response, loaded);
		// the node answered itself
		if (result.noWebhookResponse) delivery.status = response.statusCode;
		if (result.workflowData !== undefined && trigger.executionStartOutlastsClientFor > 0) {
			trigger.executionStartOutlastsClientFor--;
			if (!response.destroyed) await once(response, 'close');
			delivery.status = 0;
			return;
		}
		if (result.workflowData !== undefined && trigger.executionStartFailsFor > 0) {
			// n8n: WorkflowRunner.run threw; it answers 500 and its save of static data never runs
			trigger.executionStartFailsFor--;
			respond(500, { code: 0, message: 'There was a problem executing the workflow' });
			return;
		}
		if (result.workflowData !== undefined) {
			if (trigger.resetsChangeFlagAtRunStart) trigger.establishContextForPersistence(loaded);
			delivery.execution = await runTriggeredWorkflow(trigger, result.workflowData);
		}
		// n8n saves only after database round trips (the execution is created first), so requests
		// arriving meanwhile load the static data as it was before this one
		await new Promise((resolve) => setTimeout(resolve, DATABASE_ROUND_TRIP_MS));
		await trigger.save(loaded);

		if (result.noWebhookResponse) return;
		if (result.workflowData === undefined) {
			respond(200, result.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}
		if (trigger.responseLostFor > 0) {
			trigger.responseLostFor--;
			respond(504, { message: 'Gateway time-out' });
			return;
		}
		respond(200, onReceivedBody(trigger));
	}
}

/**
 * A sandbox that accepts the receiver's `http://127.0.0.1` URLs, reset before every test, plus a
 * receiver for the whole file.
 */
export function useTriggerSandbox(config: DeepPartialConfig = {}): {
	fixture: SandboxFixture;
	receiver: () => TriggerReceiver;
	testMode: () => SandboxControl;
} {
	let receiver: TriggerReceiver | undefined;
	beforeAll(async () => {
		receiver = await TriggerReceiver.start();
	});
	// Before useSandbox's hooks: jest runs afterAll hooks in declaration order, and the receiver
	// closes before the sandbox.
	afterAll(async () => {
		await receiver?.close();
	});
	const fixture = useSandbox({
		...config,
		webhooks: { allowInsecureUrls: true, ...config.webhooks },
	});
	return {
		fixture,
		receiver: () => receiver!,
		testMode: () =>
			new SandboxControl(fixture.sandbox.origin, { organization: 'acme', mode: 'test' }),
	};
}
