/**
 * What every end-to-end test file starts from: the sandbox (accepting n8n's loopback http:// webhook
 * URL), a real n8n with our package installed, an owner, an API key and a stored credential.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	DEFAULT_CONFIG,
	startSandbox,
	type OrganizationConfig,
	type Sandbox,
	type WebhooksConfig,
} from '../sandbox';
import { EVENT_CATALOG } from '../sandbox/events';
import { CREDENTIAL_TYPE } from './constants';
import { N8nInstance, setUpOwner, startN8nWithPackage, type N8nClient } from './n8n';
import { QueueCluster } from './queue/cluster';
import { SandboxControl, type SandboxTarget } from './sandbox-control';
import type { CredentialReference } from './workflows';

export const SANDBOX_CREDENTIAL_NAME = 'Workforce Management (sandbox)';

/**
 * The sandbox's organizations, with every module active for the target organization: the scenarios
 * (timesheet.approved above all) need the event types the default Acme, with members and customers
 * only, does not offer in its event catalog.
 */
function organizationsWithAllModules(slug: string): OrganizationConfig[] {
	const allModules = [...new Set(EVENT_CATALOG.map((entry) => entry.module_gate))];
	return DEFAULT_CONFIG.organizations.map((organization) =>
		organization.slug === slug ? { ...organization, modules: allModules } : organization,
	);
}

export interface E2eWorldOptions {
	/** The organization and key mode the credential (and the emitted events) use. */
	target?: SandboxTarget;
	apiKey?: string;
	sandboxPort?: number;
	n8nPort?: number;
	/** Where n8n's user folder goes; kept at stop. Without it, a temporary folder removed at stop. */
	workFolder?: string;
	onN8nOutput?: (chunk: string) => void;
	/** The sandbox's delivery settings beyond loopback URLs, e.g. a short retry schedule. */
	sandboxWebhooks?: Partial<WebhooksConfig>;
	/**
	 * n8n in queue mode (harness/queue/): `n8n` is main, `queue` has the worker and the webhook
	 * processes, and triggers register webhook-1's URL. No restarts.
	 */
	queue?: boolean;
	/** With `queue`: nginx in front of the webhook processes, and triggers register its URL. */
	balancer?: boolean;
	/** Whether n8n (main, in queue mode) serves its editor (N8nStartOptions.editor; default true). */
	editor?: boolean;
}

function removeFolder(folder: string | undefined): void {
	if (folder) rmSync(folder, { recursive: true, force: true });
}

interface E2eWorldParts {
	sandbox: Sandbox;
	n8n: N8nInstance;
	client: N8nClient;
	credential: CredentialReference;
	target: SandboxTarget;
	apiKey: string;
	n8nApiKey: string;
	temporaryFolder?: string;
	onN8nOutput?: (chunk: string) => void;
	queue?: QueueCluster;
}

/** Each line a queue process prints, prefixed with its role, for one shared log. */
function tagLines(onOutput?: (chunk: string) => void) {
	if (!onOutput) return undefined;
	return (role: string, chunk: string) => onOutput(chunk.replace(/^(?=.)/gm, `[${role}] `));
}

export class E2eWorld {
	readonly sandbox: Sandbox;

	readonly control: SandboxControl;

	readonly client: N8nClient;

	readonly credential: CredentialReference;

	/** The sandbox API key the credential holds. */
	readonly apiKey: string;

	/** The owner's key for n8n's public API. */
	readonly n8nApiKey: string;

	private currentN8n: N8nInstance;

	private constructor(private readonly parts: E2eWorldParts) {
		this.sandbox = parts.sandbox;
		this.control = new SandboxControl(parts.sandbox.origin, parts.target);
		this.client = parts.client;
		this.credential = parts.credential;
		this.apiKey = parts.apiKey;
		this.n8nApiKey = parts.n8nApiKey;
		this.currentN8n = parts.n8n;
	}

	/** In queue mode: the worker and the webhook processes (`n8n` is main). */
	get queue(): QueueCluster | undefined {
		return this.parts.queue;
	}

	/** The running n8n (a new instance after a restart). */
	get n8n(): N8nInstance {
		return this.currentN8n;
	}

	static async start(options: E2eWorldOptions = {}): Promise<E2eWorld> {
		const target = options.target ?? { organization: 'acme', mode: 'live' };
		const apiKey = options.apiKey ?? `wfm_${target.mode}_${target.organization}_all`;
		const temporaryFolder = options.workFolder
			? undefined
			: mkdtempSync(join(tmpdir(), 'wfm-e2e-'));
		const sandbox = await startSandbox({
			config: {
				organizations: organizationsWithAllModules(target.organization),
				webhooks: { allowInsecureUrls: true, ...options.sandboxWebhooks },
			},
			port: options.sandboxPort ?? 0,
		});
		try {
			const queue = options.queue
				? await QueueCluster.start({
						workFolder: (options.workFolder ?? temporaryFolder)!,
						mainPort: options.n8nPort,
						onOutput: tagLines(options.onN8nOutput),
						balancer: options.balancer,
						editor: options.editor,
					})
				: undefined;
			const {
				n8n,
				client,
				apiKey: n8nApiKey,
			} = queue
				? await setUpOwner(queue.main).catch(async (error: unknown) => {
						await queue.stop();
						throw error;
					})
				: await startN8nWithPackage({
						workFolder: options.workFolder ?? temporaryFolder,
						port: options.n8nPort,
						onOutput: options.onN8nOutput,
						editor: options.editor,
					});
			try {
				const credential = await client.createCredential({
					name: SANDBOX_CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey, baseUrl: sandbox.baseUrl },
				});
				return new E2eWorld({
					sandbox,
					n8n,
					client,
					credential,
					target,
					apiKey,
					n8nApiKey,
					temporaryFolder,
					onN8nOutput: options.onN8nOutput,
					queue,
				});
			} catch (error) {
				await (queue ?? n8n).stop();
				throw error;
			}
		} catch (error) {
			await sandbox.close();
			removeFolder(temporaryFolder);
			throw error;
		}
	}

	/** Stops n8n only (the sandbox keeps running and keeps its data). */
	async stopN8n(): Promise<void> {
		await this.currentN8n.stop();
	}

	/** Starts n8n again on the same user folder and port: active workflows come back by themselves. */
	async startN8n(): Promise<void> {
		if (this.parts.queue) throw new Error('A queue-mode world cannot restart n8n');
		this.currentN8n = await N8nInstance.start({
			userFolder: this.currentN8n.userFolder,
			port: this.currentN8n.port,
			onOutput: this.parts.onN8nOutput,
			editor: this.currentN8n.editor,
		});
	}

	async stop(): Promise<void> {
		try {
			await (this.parts.queue ?? this.currentN8n).stop();
		} finally {
			await this.sandbox.close();
			removeFolder(this.parts.temporaryFolder);
		}
	}
}
