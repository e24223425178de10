/** A small client for the REST (cookie, what the editor uses) and public API (API key) calls a user's clicks would make. */
import { eventually } from '../poll';

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Workforce-Demo-1',
};
export type Owner = typeof DEFAULT_OWNER;

export interface CredentialData {
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowDefinition {
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	/** The public API accepts it on create: how a workflow arrives carrying another's static data. */
	staticData?: Record<string, unknown> | null;
}

/** The workflow copied into an execution record. */
export interface WorkflowRecord {
	nodes: unknown[];
	staticData?: Record<string, unknown> | null;
	[key: string]: unknown;
}

/** Statuses of an execution n8n has not finished (yet). */
const UNFINISHED_STATUSES = new Set(['new', 'running', 'unknown']);

interface ExecutionStatus {
	id: string;
	status: string;
}

/**
 * Whether n8n is done with the execution: it succeeded, failed, crashed, was canceled…, or is
 * `unknown`, which a stop leaves and nothing moves on (so a wait counts it, unlike
 * `unfinishedExecutionIds`, which reports it).
 */
const isFinished = ({ status }: ExecutionStatus): boolean =>
	status !== 'running' && status !== 'new';

export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	data?: {
		resultData: {
			lastNodeExecuted?: string;
			runData: Record<
				string,
				Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
			error?: { message: string };
		};
		/** What was left to run: an execution that never finished still holds its trigger's items here. */
		executionData?: {
			nodeExecutionStack?: Array<{
				node: { name: string };
				data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
			}>;
		};
	};
}

/** The first item a node emitted in an execution (fetched with its data). */
export function nodeOutput(execution: Execution, nodeName: string): Record<string, unknown> {
	const runs = execution.data?.resultData.runData[nodeName];
	const item = runs?.[0]?.data?.main[0]?.[0];
	if (!item) {
		throw new Error(
			`Execution ${execution.id} has no output of node "${nodeName}" (status ${execution.status})`,
		);
	}
	return item.json;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** The editor's view of a workflow's publication (n8n 2.36+). */
interface PublicationStatus {
	status: 'in_progress' | 'published' | 'partial' | 'failed' | 'not_published';
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

export class N8nApiError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(message);
		this.name = 'N8nApiError';
	}
}

export class N8nClient {
	private cookie = '';

	private apiKey = '';

	constructor(readonly baseUrl: string) {}

	/** Creates the owner account (first start of a user folder) and keeps its session cookie. */
	async setupOwner(owner: Owner = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/rest/owner/setup', owner);
	}

	async login(owner: Owner = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/rest/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	}

	/** Creates an API key with every scope the instance offers and uses it for public API calls. */
	async createApiKey(label = 'e2e'): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/rest/api-keys/scopes');
		const created = await this.rest<{ rawApiKey: string }>('POST', '/rest/api-keys', {
			label,
			scopes,
			expiresAt: null,
		});
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** The owner's session cookie (`n8n-auth`), e.g. for a browser. */
	get sessionCookie(): { name: string; value: string } | undefined {
		if (!this.cookie) return undefined;
		const [name, value] = this.cookie.split('=', 2);
		return { name, value };
	}

	useApiKey(apiKey: string): void {
		this.apiKey = apiKey;
	}

	/**
	 * What the credential dialog's "Test" button does: n8n tests the values in the dialog
	 * (`credential.data`) of a credential the user may read (`credential.id`).
	 */
	async testCredential(credential: CredentialData & { id: string }): Promise<CredentialTestResult> {
		return await this.rest<CredentialTestResult>('POST', '/rest/credentials/test', {
			credentials: credential,
		});
	}

	/** Saves a credential as the dialog does (the public API's schema asks for fields our type lacks). */
	async createCredential(credential: CredentialData): Promise<{ id: string; name: string }> {
		const { id, name } = await this.rest<{ id: string; name: string }>(
			'POST',
			'/rest/credentials',
			credential,
		);
		return { id, name };
	}

	async createWorkflow(workflow: WorkflowDefinition): Promise<{ id: string; name: string }> {
		const { name, nodes, connections, settings = {}, staticData } = workflow;
		return await this.publicApi('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings,
			...(staticData ? { staticData } : {}),
		});
	}

	/** Edits a stored credential as the dialog's Save does (e.g. a rotated API key). */
	async updateCredential(id: string, credential: CredentialData): Promise<void> {
		await this.rest('PATCH', `/rest/credentials/${id}`, credential);
	}

	/**
	 * "Listen for test event" on a trigger, as the editor asks for it: n8n registers the trigger's
	 * `/webhook-test/` URL (checkExists/create with production's workflow and node id) and runs
	 * the workflow in mode `manual` for the next request to it, then removes the registration.
	 */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<void> {
		const stored = await this.getWorkflowInEditor(workflowId);
		const workflowData = {
			id: workflowId,
			name: stored.name,
			nodes: stored.nodes,
			connections: stored.connections,
			pinData: {},
			active: stored.active,
			settings: stored.settings,
			tags: [],
			versionId: stored.versionId,
			meta: stored.meta ?? {},
		};
		const answer = await this.rest<{ waitingForWebhook?: boolean }>(
			'POST',
			`/rest/workflows/${workflowId}/run`,
			{
				workflowData,
				startNodes: [{ name: triggerName, sourceData: null }],
				destinationNode: { nodeName: triggerName, mode: 'inclusive' },
			},
		);
		if (answer.waitingForWebhook !== true) {
			throw new Error(`n8n did not start listening for a test event: ${JSON.stringify(answer)}`);
		}
	}

	/**
	 * Activation runs the triggers' webhook lifecycle (checkExists/create) in the running instance;
	 * resolves once it has (see `waitForPublication`).
	 */
	async activateWorkflow(id: string): Promise<void> {
		await this.publicApi('POST', `/workflows/${id}/activate`);
		await this.waitForPublication(id, 'published');
	}

	/** Deactivation runs the triggers' delete(); resolves once it has. */
	async deactivateWorkflow(id: string): Promise<void> {
		await this.publicApi('POST', `/workflows/${id}/deactivate`);
		await this.waitForPublication(id, 'not_published');
	}

	/** Saves a new version of a workflow; when it is active, n8n publishes it at once (delete(), then create()). */
	async updateWorkflow(id: string, workflow: WorkflowDefinition): Promise<void> {
		const { name, nodes, connections, settings = {} } = workflow;
		const saved = await this.publicApi<{ active?: boolean }>('PUT', `/workflows/${id}`, {
			name,
			nodes,
			connections,
			settings,
		});
		if (saved.active) await this.waitForPublication(id, 'published');
	}

	/**
	 * n8n 2.8 runs a trigger's webhook methods before the public API answers `activate` and
	 * `deactivate`. Newer lines (2.41) publish through an outbox and answer first: the webhook
	 * exists about 1 s later. This waits on n8n's own signal, the editor's
	 * `GET /rest/workflows/:id/publication-status` (`in_progress` until the triggers ran, then
	 * `published`, `partial`/`failed` with each trigger's error, or `not_published`). On a line
	 * without that route (404) there is nothing to wait for. Needs the owner's session (setupOwner/login).
	 */
	async waitForPublication(
		id: string,
		wanted: 'published' | 'not_published',
		timeoutMs = 30_000,
	): Promise<void> {
		const startedAt = Date.now();
		for (;;) {
			let publication: PublicationStatus;
			try {
				publication = await this.rest<PublicationStatus>(
					'GET',
					`/rest/workflows/${id}/publication-status`,
				);
			} catch (error) {
				if (error instanceof N8nApiError && error.status === 404) return;
				throw error;
			}
			if (publication.status === wanted) return;
			if (publication.status === 'failed' || publication.status === 'partial') {
				const errors = publication.triggers
					.filter((trigger) => trigger.status === 'failed')
					.map((trigger) => trigger.errorMessage);
				throw new Error(`Workflow ${id} could not be published: ${errors.join('; ')}`);
			}
			if (Date.now() - startedAt > timeoutMs) {
				throw new Error(
					`Workflow ${id} is "${publication.status}" after ${timeoutMs} ms, expected "${wanted}"`,
				);
			}
			await new Promise((wake) => setTimeout(wake, 100));
		}
	}

	/** The workflows, optionally only the published (active) ones, as the public API lists them. */
	async listWorkflows(
		filter: { active?: boolean } = {},
	): Promise<Array<WorkflowDefinition & { id: string; active: boolean }>> {
		const query = new URLSearchParams({ limit: '250' });
		if (filter.active !== undefined) query.set('active', String(filter.active));
		const page = await this.publicApi<{
			data: Array<WorkflowDefinition & { id: string; active: boolean }>;
		}>('GET', `/workflows?${query}`);
		return page.data;
	}

	/** A workflow as the public API returns it (static data included). */
	async getWorkflow(id: string): Promise<WorkflowDefinition & Record<string, unknown>> {
		return await this.publicApi('GET', `/workflows/${id}`);
	}

	/** A workflow as the editor loads it (static data included). */
	async getWorkflowInEditor(id: string): Promise<Record<string, unknown>> {
		return await this.rest('GET', `/rest/workflows/${id}`);
	}

	/** An execution as the editor's execution view loads it (with the workflow data n8n saved). */
	async getExecutionInEditor(id: string): Promise<Record<string, unknown>> {
		return await this.rest('GET', `/rest/executions/${id}`);
	}

	/** Executions (of one workflow, or of all), oldest first, with their data. */
	async listExecutions(workflowId?: string): Promise<Execution[]> {
		const query = new URLSearchParams({ includeData: 'true' });
		if (workflowId) query.set('workflowId', workflowId);
		return (await this.pagedExecutions<Execution>(query)).sort(
			(a, b) => Number(a.id) - Number(b.id),
		);
	}

	/** How many executions of a workflow n8n has recorded, by status (read without their data). */
	async countExecutions(workflowId: string): Promise<Record<string, number>> {
		const counts: Record<string, number> = {};
		for (const { status } of await this.executionStatuses(workflowId))
			counts[status] = (counts[status] ?? 0) + 1;
		return counts;
	}

	/**
	 * An execution as n8n stores it (the editor's REST API): `workflowData` is the workflow copied
	 * into the record, static data included; `data` the run data as the stored (flatted) string.
	 */
	async storedExecution(id: string): Promise<{ workflowData: WorkflowRecord; data: string }> {
		return await this.rest('GET', `/rest/executions/${id}`);
	}

	/**
	 * Waits until the workflow has at least `count` finished executions (n8n saves them after the
	 * webhook has been answered) and returns them, oldest first. It polls without the executions'
	 * data (about 20 ms of n8n's time at 100 executions, against 50 ms with it), and reads the data
	 * once at the end.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<Execution[]> {
		await eventually(
			`${count} finished execution(s) of workflow ${workflowId}`,
			async () => (await this.executionStatuses(workflowId)).filter(isFinished).length,
			(finished) => finished >= count,
			{ timeoutMs, intervalMs: 250, describe: (finished) => `${finished} finished` },
		);
		return (await this.listExecutions(workflowId)).filter(isFinished);
	}

	/**
	 * Ids of the workflow's executions that are queued, running or in an unknown state. Read right
	 * after a restart, before anything is sent, these are what the stop left unfinished: n8n never
	 * finishes them (`docs/webhooks.md`, "Restarting n8n").
	 */
	async unfinishedExecutionIds(workflowId: string): Promise<string[]> {
		const ids = new Set<string>();
		// the public API leaves out what this process is running unless asked for by status
		const running = await this.publicApi<{ data: Array<{ id: string }> }>(
			'GET',
			`/executions?${new URLSearchParams({ workflowId, status: 'running', limit: '250' })}`,
		);
		for (const execution of running.data) ids.add(execution.id);
		for (const execution of await this.executionStatuses(workflowId))
			if (UNFINISHED_STATUSES.has(execution.status)) ids.add(execution.id);
		return [...ids].sort((a, b) => Number(a) - Number(b));
	}

	/**
	 * The workflow's executions once their statuses have stayed the same for `quietMs`: after a
	 * start, what n8n does at boot with executions a stop left unfinished (runs them, marks them
	 * crashed, or leaves them) is over by then.
	 */
	async executionsAtRest(workflowId: string, quietMs = 2_000): Promise<Execution[]> {
		const statuses = async () =>
			(await this.executionStatuses(workflowId))
				.map((execution) => `${execution.id}:${execution.status}`)
				.sort()
				.join(' ');
		let before = await statuses();
		for (;;) {
			await new Promise((wake) => setTimeout(wake, quietMs));
			const now = await statuses();
			if (now === before) return await this.listExecutions(workflowId);
			before = now;
		}
	}

	/**
	 * Every execution of the workflow, once none is queued or running but those in `leftBehind`
	 * (what a stop left unfinished, which never finish). For use after every delivery was answered:
	 * each execution exists by then, but the public API leaves out the ones this n8n process is
	 * running (regular mode), so a plain count read then can fall short.
	 */
	async settledExecutions(
		workflowId: string,
		{ leftBehind = [] as string[], timeoutMs = 180_000 } = {},
	): Promise<Execution[]> {
		const ignored = new Set(leftBehind);
		await eventually(
			`no execution of workflow ${workflowId} queued or running`,
			async () => (await this.unfinishedExecutionIds(workflowId)).filter((id) => !ignored.has(id)),
			(unfinished) => unfinished.length === 0,
			{
				timeoutMs,
				intervalMs: 250,
				describe: (unfinished) => `${unfinished.length} unfinished (${unfinished.join(', ')})`,
			},
		);
		return await this.listExecutions(workflowId);
	}

	/** Every execution the public API lists for `query`, page after page. */
	private async pagedExecutions<T>(query: URLSearchParams): Promise<T[]> {
		const executions: T[] = [];
		let cursor: string | undefined;
		do {
			const page = new URLSearchParams(query);
			page.set('limit', '250');
			if (cursor) page.set('cursor', cursor);
			const answer = await this.publicApi<{ data: T[]; nextCursor: string | null }>(
				'GET',
				`/executions?${page}`,
			);
			executions.push(...answer.data);
			cursor = answer.nextCursor ?? undefined;
		} while (cursor);
		return executions;
	}

	/** The workflow's executions' ids and statuses, without their data. */
	private async executionStatuses(workflowId: string): Promise<ExecutionStatus[]> {
		return await this.pagedExecutions<ExecutionStatus>(new URLSearchParams({ workflowId }));
	}

	/** The editor's REST API: session cookie, answers wrapped in `{ data }`. */
	private async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.send(
			method,
			path,
			body,
			this.cookie ? { cookie: this.cookie } : {},
		);
		const authCookie = response.headers
			.getSetCookie()
			.map((header) => header.split(';')[0])
			.find((pair) => pair.startsWith('n8n-auth='));
		if (authCookie) this.cookie = authCookie;
		return ((await readAnswer(method, path, response)) as { data: T }).data;
	}

	/** The public API: API key, plain answers. */
	private async publicApi<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('No n8n API key: call createApiKey() first');
		const fullPath = `/api/v1${path}`;
		const response = await this.send(method, fullPath, body, { 'x-n8n-api-key': this.apiKey });
		return (await readAnswer(method, fullPath, response)) as T;
	}

	private async send(
		method: string,
		path: string,
		body: unknown,
		headers: Record<string, string>,
	): Promise<Response> {
		return await fetch(this.baseUrl + path, {
			method,
			headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}
}

/** The parsed JSON answer; an N8nApiError naming the request when the status is not 2xx. */
async function readAnswer(method: string, path: string, response: Response): Promise<unknown> {
	const text = await response.text();
	let parsed: unknown = text || undefined;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		// not JSON (an HTML error page): keep the text for the message
	}
	if (!response.ok) {
		throw new N8nApiError(
			`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`,
			response.status,
			parsed,
		);
	}
	return parsed;
}
