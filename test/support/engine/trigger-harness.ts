/**
 * The trigger node driven the way n8n's webhook service drives it, on the engine set up in
 * harness.ts: activation through HookContext, deliveries through WebhookContext.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HookContext, TriggerContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookType,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TRIGGER_NODE_TYPE } from '../../../harness/constants';
import {
	createAdditionalData,
	createWorkflow,
	nodeTypeInFreshProcess,
	nodeTypes,
	background,
	scheduledTasks,
} from './harness';
import type { ScheduledCron } from './harness';
import type { ProcessNodeType } from './harness';
import type { WorkflowNodeOptions } from './harness';

export type WebhookMethodName = 'checkExists' | 'create' | 'delete';

export interface TriggerHarnessOptions extends Omit<WorkflowNodeOptions, 'type'> {
	type?: string;
	/** Base URL n8n hands to `create()` (its WEBHOOK_URL); the webhook URL is `<base>/webhook/<id>/<path>`. */
	webhookBaseUrl?: string;
	/**
	 * "Listen for test event": n8n registers the `/webhook-test/` URL with production's workflow
	 * and node id, runs the webhook methods in mode `manual` and starts executions in mode `manual`.
	 */
	isTest?: boolean;
	/** Runs the node in a newly started n8n process: nothing kept in memory from before. */
	freshProcess?: boolean;
	/**
	 * The workflow's row in n8n's database, when several webhook processes serve the workflow:
	 * each request loads static data from it and saves it back whole, without a lock.
	 */
	row?: WorkflowRow;
}

/** What n8n's database holds of a workflow that the trigger reads and writes: its static data. */
export interface WorkflowRow {
	staticData: IDataObject;
}

/**
 * A trigger node in an active workflow, the way n8n's webhook service drives it: `webhookMethods`
 * through HookContext (static data kept in the workflow across calls) and `webhook()` through
 * WebhookContext with a real HTTP request and response.
 */
export class TriggerHarness {
	readonly workflow: Workflow;

	readonly node: INode;

	readonly additionalData: IWorkflowExecuteAdditionalData;

	/** The mode n8n runs `webhook()` and the execution in: `manual` for a test listener. */
	readonly mode: 'webhook' | 'manual';

	private readonly process?: ProcessNodeType;

	constructor(options: TriggerHarnessOptions) {
		const created = createWorkflow({
			...options,
			type: options.type ?? TRIGGER_NODE_TYPE,
			name: options.name ?? 'Workforce Management Trigger',
			webhookId: options.webhookId ?? randomUUID(),
		});
		this.workflow = created.workflow;
		this.node = created.node;
		this.additionalData = createAdditionalData({ webhookBaseUrl: options.webhookBaseUrl });
		this.mode = options.isTest === true ? 'manual' : 'webhook';
		if (options.freshProcess) this.process = nodeTypeInFreshProcess(this.node.type);
		this.row = options.row;
	}

	get nodeType(): INodeType {
		return (
			this.process?.nodeType ?? nodeTypes.getByNameAndVersion(this.node.type, this.node.typeVersion)
		);
	}

	private readonly row?: WorkflowRow;

	/** The workflow's static data, as n8n persists it between activations and executions. */
	get staticData(): IDataObject {
		return this.row?.staticData ?? this.workflow.staticData;
	}

	/** The trigger node's own part of `staticData` (n8n keeps it under `node:<name>`), or of another copy. */
	nodeStaticData(staticData: IDataObject = this.staticData): IDataObject {
		return (staticData[`node:${this.node.name}`] ?? {}) as IDataObject;
	}

	/** A copy of `staticData` whose node part is `change(node part)`, to start the trigger again on. */
	withNodeStaticData(change: (nodeData: IDataObject) => IDataObject): IDataObject {
		return { ...this.staticData, [`node:${this.node.name}`]: change(this.nodeStaticData()) };
	}

	webhookData(name = 'default'): IWebhookData {
		const description = this.nodeType.description.webhooks?.find(
			(webhook: IWebhookDescription) => webhook.name === name,
		);
		if (!description) throw new Error(`The node describes no webhook named ${name}`);
		const path = this.workflow.expression.getSimpleParameterValue(
			this.node,
			description.path,
			'internal',
			{},
		);
		return {
			httpMethod: (description.httpMethod as IWebhookData['httpMethod']) ?? 'POST',
			node: this.node.name,
			path: String(path),
			webhookDescription: description,
			workflowId: this.workflow.id,
			workflowExecuteAdditionalData: this.additionalData,
			webhookId: this.node.webhookId,
			isTest: this.mode === 'manual',
		};
	}

	/** The production URL n8n would register for this trigger. */
	webhookUrl(name = 'default'): string {
		const context = new HookContext(
			this.workflow,
			this.node,
			this.additionalData,
			'trigger',
			'activate',
			this.webhookData(name),
		);
		return context.getNodeWebhookUrl(name as WebhookType) as string;
	}

	async runWebhookMethod(
		method: WebhookMethodName,
		activation: WorkflowActivateMode = 'activate',
		name = 'default',
	): Promise<boolean> {
		const webhookData = this.webhookData(name);
		const fn = this.nodeType.webhookMethods?.[name as WebhookType]?.[method];
		if (!fn) throw new Error(`The node has no webhookMethods.${name}.${method}`);
		// n8n's test webhooks: checkExists/create in mode and activation `manual`, delete as `internal`
		const [mode, activationMode]: [WorkflowExecuteMode, WorkflowActivateMode] =
			this.mode === 'manual' && method !== 'delete'
				? ['manual', 'manual']
				: ['trigger', activation];
		const context = new HookContext(
			this.workflow,
			this.node,
			this.additionalData,
			method === 'delete' ? 'internal' : mode,
			activationMode,
			webhookData,
		);
		return await fn.call(context);
	}

	/**
	 * What n8n does beside the webhook methods when it publishes the workflow: `trigger()`, through
	 * n8n-core's TriggerContext, in mode `trigger`; its `registerCron` registers with n8n-core's
	 * scheduler. `activate()` does not: n8n's cron would tick in the middle of other tests.
	 */
	async startSchedule(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		const context = new TriggerContext(
			this.workflow,
			this.node,
			this.additionalData,
			'trigger',
			activation,
		);
		await this.nodeType.trigger!.call(context);
	}

	/** This workflow's cron jobs, as n8n-core's scheduler holds them. */
	scheduledJobs(): ScheduledCron[] {
		return [...(scheduledTasks.cronsByWorkflow.get(this.workflow.id)?.values() ?? [])];
	}

	/** One tick of each job, as `cron` fires it; resolves when the checks it started are done. */
	async tickSchedule(): Promise<void> {
		for (const cron of this.scheduledJobs()) cron.job.fireOnTick();
		await this.background.backgroundSettled('endpointCheck');
	}

	/** What n8n does to the workflow's jobs when it unpublishes or republishes it. */
	stopSchedule(): void {
		scheduledTasks.deregisterCrons(this.workflow.id);
	}

	/** What n8n does on activation: `checkExists`, then `create` when it answered false. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		if (!(await this.runWebhookMethod('checkExists', activation))) {
			await this.runWebhookMethod('create', activation);
		}
		await this.background.backgroundSettled('recovery');
	}

	/** The trigger's background work in this trigger's process. */
	get background() {
		return this.process?.background ?? background();
	}

	/** `delete()`, then the end of its grace period: the endpoint is deleted unless reclaimed. */
	async deactivate(): Promise<boolean> {
		const answer = await this.runWebhookMethod('delete');
		await this.background.backgroundSettled('retirement');
		return answer;
	}

	/**
	 * What n8n 2.8.4 does when a published workflow is saved again: `delete()` (as for a
	 * deactivation), then `checkExists()`/`create()` with activation mode `update`, at once.
	 */
	async republish(): Promise<void> {
		await this.runWebhookMethod('delete', 'update');
		await this.activate('update');
	}

	/**
	 * Hands one real HTTP request to the node's `webhook()` as n8n's webhook service does: the raw
	 * body is on `request.rawBody`, the parsed JSON on `request.body`.
	 */
	async runWebhook(
		request: IncomingMessage & { rawBody?: Buffer; body?: unknown },
		response: ServerResponse,
		workflow: Workflow = this.workflow,
		name = 'default',
	): Promise<IWebhookResponseData> {
		const additionalData = {
			...this.additionalData,
			httpRequest: request,
			httpResponse: response,
		} as unknown as IWorkflowExecuteAdditionalData;
		const webhookData = {
			...this.webhookData(name),
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			workflow,
			this.node,
			additionalData,
			this.mode,
			webhookData,
			[],
			null,
		);
		if (!this.nodeType.webhook) throw new Error('The node has no webhook()');
		return await this.nodeType.webhook.call(context);
	}

	/**
	 * The workflow as n8n 2.8's live-webhook service loads it for one request: its own copy of the
	 * static data as last saved. {@link saveStaticData} writes it back whole, if changed; there is
	 * no lock, so with concurrent requests the last save wins, as in n8n.
	 */
	loadForRequest(): Workflow {
		const staticData = JSON.parse(JSON.stringify(this.staticData)) as IDataObject;
		delete staticData.__dataChanged;
		return this.workflowAround(staticData);
	}

	/**
	 * What n8n 2.36+ does as it starts the execution (`WorkflowRunner.run` →
	 * `establishContextForPersistence`, bench/FINDINGS-2.41.md): it wraps the request's static data
	 * object in a second `Workflow`, whose constructor resets the object's change flag. n8n 2.8 does
	 * not, and without {@link LiveTrigger.resetsChangeFlagAtRunStart} neither does the receiver.
	 */
	establishContextForPersistence(loaded: Workflow): void {
		this.workflowAround(loaded.staticData);
	}

	private workflowAround(staticData: IDataObject): Workflow {
		return new Workflow({
			id: this.workflow.id,
			name: this.workflow.name,
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData,
			settings: this.workflow.settings,
		});
	}

	/** The request's static data as n8n serializes it when it saves, or nothing if unchanged. */
	copyOfChanged(loaded: Workflow): Workflow | undefined {
		if (loaded.staticData.__dataChanged !== true) return undefined;
		const copy = this.workflowAround(JSON.parse(JSON.stringify(loaded.staticData)) as IDataObject);
		copy.staticData.__dataChanged = true;
		return copy;
	}

	saveStaticData(loaded: Workflow): void {
		if (loaded.staticData.__dataChanged !== true) return;
		if (this.row)
			this.row.staticData = JSON.parse(JSON.stringify(loaded.staticData)) as IDataObject;
		else this.workflow.staticData = JSON.parse(JSON.stringify(loaded.staticData)) as IDataObject;
	}
}
