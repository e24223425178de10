/**
 * Runs this package's nodes inside n8n's real engine (n8n-core's WorkflowExecute and
 * LoadOptionsContext; trigger-harness.ts adds HookContext and WebhookContext), loaded from the TypeScript sources, against an API over HTTP.
 *
 * n8n's CLI normally supplies three things the engine needs; they are rebuilt here, small:
 * a node-types lookup, a credentials helper (which applies the credential's declarative
 * `authenticate`, as the CLI's CredentialsHelper does) and the `additionalData` object.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import {
	ExecutionLifecycleHooks,
	InstanceSettings,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';

import { ACTION_NODE_TYPE, CREDENTIAL_TYPE, PACKAGE_NAME, PACKAGE_ROOT } from '../../../harness/constants';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const packageJson = require(join(PACKAGE_ROOT, 'package.json')) as {
	n8n: { nodes: string[]; credentials: string[] };
};

export const CREDENTIAL_ID = 'workforce-credential';

/* ------------------------------------------------------------------ engine setup */

// n8n-core resolves its services from its own copy of @n8n/di; register ours in that container.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require(
	require.resolve('@n8n/di', { paths: [dirname(require.resolve('n8n-core'))] }),
) as typeof import('@n8n/di');

// InstanceSettings would otherwise create ~/.n8n/config with a random encryption key.
const n8nFolder = mkdtempSync(join(tmpdir(), 'wfm-engine-'));
afterAll(() => rmSync(n8nFolder, { recursive: true, force: true }));
Container.set(InstanceSettings, {
	n8nFolder,
	instanceId: 'workforce-management-tests',
	instanceType: 'main',
	instanceRole: 'leader',
	hostId: 'main-workforce-management-tests',
	encryptionKey: 'workforce-management-tests',
	isMultiMain: false,
	isSingleMain: true,
	isLeader: true,
	isWorker: false,
} as unknown as InstanceSettings);

// The SSH tunnel manager, created with the first execution context, runs a cleanup interval that
// would keep jest from exiting: create it now and let its timer not hold the process.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SSHClientsManager } = require(
	join(dirname(require.resolve('n8n-core')), 'execution-engine', 'ssh-clients-manager'),
) as { SSHClientsManager: new () => { cleanupTimer?: NodeJS.Timeout } };
Container.get(SSHClientsManager).cleanupTimer?.unref();

/** A cron job as n8n-core's ScheduledTaskManager holds it (`cron`'s CronJob). */
export interface ScheduledCron {
	job: { fireOnTick(): void; stop(): void };
	summary: string;
}

/**
 * n8n-core's scheduler, where a node's `this.helpers.registerCron` registers: its jobs by workflow,
 * and `deregisterCrons(workflowId)`, which n8n calls when it unpublishes or republishes. Its log
 * interval would keep jest from exiting: stopped.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ScheduledTaskManager } = require(
	join(dirname(require.resolve('n8n-core')), 'execution-engine', 'scheduled-task-manager'),
) as {
	ScheduledTaskManager: new () => {
		logInterval?: NodeJS.Timeout;
		cronsByWorkflow: Map<string, Map<string, ScheduledCron>>;
		deregisterCrons(workflowId: string): void;
		deregisterAllCrons(): void;
	};
};
export const scheduledTasks = Container.get(ScheduledTaskManager);
clearInterval(scheduledTasks.logInterval);
afterAll(() => scheduledTasks.deregisterAllCrons());

/** A line a node logged through n8n's logger (`this.logger`), as the recorder below keeps it. */
export interface LoggedLine {
	level: string;
	message: string;
	meta: unknown;
}

/**
 * Records what reaches n8n's own logger (the one every node context gets from the container, at
 * its configured level) during each test of the calling file; the lines still reach its output.
 */
export function useLogRecorder(): LoggedLine[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Logger } = require(
		require.resolve('@n8n/backend-common', { paths: [dirname(require.resolve('n8n-core'))] }),
	) as typeof import('@n8n/backend-common');
	const lines: LoggedLine[] = [];
	let spy: jest.SpyInstance | undefined;
	beforeEach(() => {
		lines.length = 0;
		// error(), warn() and info() all go through log(); levels below n8n's are no-ops before it
		const logger = Container.get(Logger) as unknown as {
			log(level: string, message: string, meta: unknown): void;
		};
		const log = logger.log.bind(logger);
		spy = jest.spyOn(logger, 'log').mockImplementation((level, message, meta) => {
			lines.push({ level, message, meta });
			log(level, message, meta);
		});
	});
	afterEach(() => spy?.mockRestore());
	return lines;
}

/** The node files the package.json `n8n` section declares, mapped back to their TypeScript sources. */
function sourceOf(distPath: string): string {
	return join(PACKAGE_ROOT, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

function instantiateExportedClass<T>(modulePath: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(modulePath) as Record<string, new () => T>;
	const Class = Object.values(exported).find((value) => typeof value === 'function');
	if (!Class) throw new Error(`${modulePath} exports no class`);
	return new Class();
}

const nodeSources = new Map(
	packageJson.n8n.nodes.map((distPath) => {
		const fileName = distPath.split('/').pop() as string;
		const nodeName = fileName.replace(/\.node\.js$/, '');
		return [
			`${PACKAGE_NAME}.${nodeName.charAt(0).toLowerCase()}${nodeName.slice(1)}`,
			sourceOf(distPath),
		];
	}),
);
const loadedNodeTypes = new Map<string, INodeType>();

export const nodeTypes: INodeTypes = {
	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	},
	getByNameAndVersion(type: string): INodeType {
		let nodeType = loadedNodeTypes.get(type);
		if (!nodeType) {
			const source = nodeSources.get(type);
			if (!source) throw new Error(`Unknown node type ${type}`);
			nodeType = instantiateExportedClass<INodeType>(source);
			loadedNodeTypes.set(type, nodeType);
		}
		return nodeType;
	},
	getKnownTypes() {
		return {};
	},
};

/**
 * The node type as a newly started n8n process holds it: its modules loaded afresh, so whatever
 * they keep per process (caches, the duplicate memory) starts empty, as after a restart or in
 * another webhook process. Only inside jest (its module registry does the isolating).
 */
export function nodeTypeInFreshProcess(type: string): ProcessNodeType {
	const source = nodeSources.get(type);
	if (!source) throw new Error(`Unknown node type ${type}`);
	let loaded: ProcessNodeType | undefined;
	jest.isolateModules(() => {
		loaded = { nodeType: instantiateExportedClass<INodeType>(source), background: background() };
	});
	return loaded as ProcessNodeType;
}

type BackgroundModule = typeof import('../../../nodes/WorkforceManagementTrigger/background');

/** A node type as one n8n process holds it, with the trigger's background work of that process. */
export interface ProcessNodeType {
	nodeType: INodeType;
	background: BackgroundModule;
}

/**
 * How long the trigger waits after `delete()` before it deletes the endpoint (a republish takes it
 * back meanwhile). n8n's is the shipped value; the harness's is short so that deactivations end
 * quickly, and a test of the grace period sets its own with {@link setRepublishGrace}. Recovery
 * after an activation starts at once: the harness saves static data as the hook returns.
 */
export const HARNESS_REPUBLISH_GRACE_SECONDS = 0.2;
/**
 * The grace period the trigger ships with, for a test whose activation on another main must claim
 * the endpoint before the deletion's time less the clocks' margin (3 s): that time is written in
 * whole seconds, so 10 s leaves a loaded machine 6 s for `delete()` and the activation. 5 s left 1
 * to 2 s, which a fresh-machine run (its fast tier beside two n8n lines' e2e) once exceeded.
 */
export { SHIPPED_REPUBLISH_GRACE_SECONDS } from '../../../nodes/WorkforceManagementTrigger/background';
/** The recovery lease's settle time: far longer than a claim's round trip to the local sandbox. */
export const HARNESS_RECOVERY_LEASE_SETTLE_SECONDS = 0.2;
let republishGraceSeconds = HARNESS_REPUBLISH_GRACE_SECONDS;
let recoveryLeaseSettleSeconds = HARNESS_RECOVERY_LEASE_SETTLE_SECONDS;

/** The trigger's background work as the current module registry (one "process") holds it. */
export function background(): BackgroundModule {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const loaded = require(
		join(PACKAGE_ROOT, 'nodes/WorkforceManagementTrigger/background.ts'),
	) as BackgroundModule;
	loaded.TRIGGER_DELAYS.republishGraceSeconds = republishGraceSeconds;
	loaded.TRIGGER_DELAYS.recoveryAfterActivationSeconds = 0;
	loaded.TRIGGER_DELAYS.recoveryLeaseSettleSeconds = recoveryLeaseSettleSeconds;
	return loaded;
}

/** Sets the trigger's recovery settle time (its lease, and the check of its retirement marks). */
export function setRecoveryLeaseSettle(seconds: number): void {
	recoveryLeaseSettleSeconds = seconds;
	background();
}

/** Sets the grace period of processes started from now on, and of the test file's own. */
export function setRepublishGrace(seconds: number): void {
	republishGraceSeconds = seconds;
	background();
}
background();

export const credentialTypes: Map<string, ICredentialType> = new Map(
	packageJson.n8n.credentials.map((distPath) => {
		const credentialType = instantiateExportedClass<ICredentialType>(sourceOf(distPath));
		return [credentialType.name, credentialType];
	}),
);

export interface WorkforceCredentials {
	apiKey: string;
	baseUrl: string;
}

/** Holds credential data by id and authenticates requests the way n8n's CLI does. */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, ICredentialDataDecryptedObject>();

	/** How many times a node loaded a credential (in n8n, each load is a database read). */
	loads = 0;

	setCredentials(id: string, data: ICredentialDataDecryptedObject): void {
		this.store.set(id, data);
	}

	/** Changes stored credential data, as editing the credential in n8n does. */
	editCredentials(id: string, changes: ICredentialDataDecryptedObject): void {
		const data = this.store.get(id);
		if (!data) throw new Error(`No credentials stored under id ${id}`);
		this.store.set(id, { ...data, ...changes });
	}

	getParentTypes(): string[] {
		return [];
	}

	/**
	 * Asked by newer n8n-core (2.4x) before it hands a credential to a node; 2.8.1 never calls it.
	 * Answers as n8n's CLI does: yes, unless the credential type is restricted to listed nodes.
	 */
	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = credentialTypes.get(credentialType) as
			| (ICredentialType & { restrictToSupportedNodes?: boolean })
			| undefined;
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some(
			(name) => nodeType === name || nodeType.endsWith(`.${name}`),
		);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes.get(typeName) ?? {};
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const resolve = (value: string) =>
				String(
					workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					) ?? '',
				);
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const options = requestOptions as unknown as Record<string, Record<string, string>>;
				options[target] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					options[target][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not used in the engine tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
	): Promise<ICredentialDataDecryptedObject> {
		this.loads++;
		const data = this.store.get(nodeCredentials.id ?? '');
		if (!data) throw new Error(`No credentials stored under id ${nodeCredentials.id}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes.get(type)?.properties ?? [];
	}
}

export const credentialsHelper = new TestCredentialsHelper();

export interface AdditionalDataOptions {
	/** What n8n would put in front of `/webhook/<id>/<path>` (its WEBHOOK_URL). */
	webhookBaseUrl?: string;
}

/** The `additionalData` n8n's CLI builds for an execution, reduced to what the engine reads. */
export function createAdditionalData(
	options: AdditionalDataOptions = {},
): IWorkflowExecuteAdditionalData {
	const instanceBaseUrl = 'http://127.0.0.1:5678/';
	const webhookBase = (options.webhookBaseUrl ?? instanceBaseUrl).replace(/\/?$/, '/');
	return {
		credentialsHelper,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in the engine tests');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${instanceBaseUrl}rest`,
		instanceBaseUrl,
		formWaitingBaseUrl: `${instanceBaseUrl}form-waiting`,
		webhookBaseUrl: `${webhookBase}webhook`,
		webhookWaitingBaseUrl: `${webhookBase}webhook-waiting`,
		webhookTestBaseUrl: `${webhookBase}webhook-test`,
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not available in the engine tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/* ------------------------------------------------------------------ workflows */

/** A resource locator parameter set "By ID". */
export function byId(value: string): INodeParameters {
	return { __rl: true, mode: 'id', value };
}

export interface WorkflowNodeOptions {
	type?: string;
	/** The node's version; 1 unless given (version 2 differs only in the Output default). */
	typeVersion?: number;
	parameters: INodeParameters;
	credentials?: WorkforceCredentials;
	name?: string;
	/** The workflow's name ("Engine test" unless given). */
	workflowName?: string;
	/** n8n's "Continue (using regular output)" error setting. */
	continueOnFail?: boolean;
	webhookId?: string;
	staticData?: IDataObject;
	/** n8n keeps a node's id for the life of the workflow: across restarts, and for test listeners. */
	nodeId?: string;
	workflowId?: string;
}

/** A one-node workflow holding our node with its credential; `staticData` persists across calls. */
export function createWorkflow(options: WorkflowNodeOptions): { workflow: Workflow; node: INode } {
	const node: INode = {
		id: options.nodeId ?? randomUUID(),
		name: options.name ?? 'Workforce Management',
		type: options.type ?? ACTION_NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: options.parameters,
		...(options.webhookId ? { webhookId: options.webhookId } : {}),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	if (options.credentials) {
		const credentialId = `${CREDENTIAL_ID}-${node.id}`;
		credentialsHelper.setCredentials(credentialId, { ...options.credentials });
		node.credentials = { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Workforce Management' } };
	}
	const workflow = new Workflow({
		id: options.workflowId ?? randomUUID(),
		name: options.workflowName ?? 'Engine test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		staticData: options.staticData ?? {},
		settings: { executionOrder: 'v1' },
	});
	// n8n resolves parameter defaults when it loads a workflow; do the same here.
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	node.parameters = resolveDefaults(nodeType, node);
	return { workflow, node };
}

/** The node's parameters with defaults filled in for its version (displayOptions by @version). */
function resolveDefaults(nodeType: INodeType, node: INode): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			node.parameters,
			true,
			false,
			node,
			nodeType.description,
		) ?? node.parameters
	);
}

export interface RunNodeOptions extends WorkflowNodeOptions, AdditionalDataOptions {
	/** Input items of the node; one empty item by default. */
	inputItems?: Array<IDataObject | INodeExecutionData>;
}

export interface RunNodeResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	/** The error that stopped the run, as the engine reports it (a plain copy: check name/httpCode). */
	error?: IDataObject & {
		message: string;
		name?: string;
		httpCode?: string | null;
		description?: string;
	};
	run: IRun;
}

function toExecutionData(item: IDataObject | INodeExecutionData): INodeExecutionData {
	return 'json' in item && typeof item.json === 'object'
		? (item as INodeExecutionData)
		: { json: item };
}

/** Runs one node through WorkflowExecute, feeding it `inputItems`, and returns what it output. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const { workflow, node } = createWorkflow(options);
	const additionalData = createAdditionalData(options);
	const executionId = randomUUID();
	additionalData.executionId = executionId;
	additionalData.hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: [node],
		connections: {},
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);

	const inputItems = (options.inputItems ?? [{}]).map(toExecutionData);
	const executeData: IExecuteData = { node, data: { main: [inputItems] }, source: null };
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [executeData] },
	});
	const run = await new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);

	const taskData = run.data.resultData.runData[node.name]?.[0];
	const items = taskData?.data?.main?.[0] ?? [];
	const error = (run.data.resultData.error ?? taskData?.error) as RunNodeResult['error'];
	return { items, error, run };
}

/** Calls one of the node's `methods.listSearch` functions as the editor does. */
export async function runListSearch(
	method: string,
	options: WorkflowNodeOptions & { filter?: string; paginationToken?: string },
): Promise<INodeListSearchResult> {
	const { workflow, node } = createWorkflow(options);
	const context = new LoadOptionsContext(workflow, node, createAdditionalData(), '');
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const search = nodeType.methods?.listSearch?.[method];
	if (!search) throw new Error(`No listSearch method ${method}`);
	return await search.call(context, options.filter, options.paginationToken);
}

/** Calls one of the node's `methods.loadOptions` functions as the editor does. */
export async function runLoadOptions(
	method: string,
	options: WorkflowNodeOptions,
): Promise<INodePropertyOptions[]> {
	const { workflow, node } = createWorkflow(options);
	const context = new LoadOptionsContext(workflow, node, createAdditionalData(), '');
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const load = nodeType.methods?.loadOptions?.[method];
	if (!load) throw new Error(`No loadOptions method ${method}`);
	return await load.call(context);
}
