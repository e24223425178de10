/**
 * What every end-to-end test file starts from: the sandbox (accepting n8n's loopback http:// webhook
 * URL), a real n8n with our package installed, an owner, an API key and a stored credential.
 */
import { DEFAULT_CONFIG, startSandbox, type OrganizationConfig, type Sandbox } from '../sandbox';
import { EVENT_CATALOG } from '../sandbox/events';
import { CREDENTIAL_TYPE, N8nInstance, startN8nWithPackage, type N8nClient } from './n8n';
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
	workFolder?: string;
	onN8nOutput?: (chunk: string) => void;
}

export class E2eWorld {
	private constructor(
		readonly sandbox: Sandbox,
		readonly control: SandboxControl,
		public n8n: N8nInstance,
		readonly client: N8nClient,
		readonly credential: CredentialReference,
		/** The sandbox API key the credential holds. */
		readonly apiKey: string,
		/** n8n's public API key of the owner. */
		readonly n8nApiKey: string,
		private readonly onN8nOutput?: (chunk: string) => void,
	) {}

	static async start(options: E2eWorldOptions = {}): Promise<E2eWorld> {
		const target = options.target ?? { organization: 'acme', mode: 'live' };
		const apiKey = options.apiKey ?? `wfm_${target.mode}_${target.organization}_all`;
		const sandbox = await startSandbox({
			config: {
				organizations: organizationsWithAllModules(target.organization),
				webhooks: { allowInsecureUrls: true },
			},
			port: options.sandboxPort ?? 0,
		});
		try {
			const started = await startN8nWithPackage({
				workFolder: options.workFolder,
				port: options.n8nPort,
				onOutput: options.onN8nOutput,
			});
			const { n8n, client } = started;
			try {
				const credential = await client.createCredential({
					name: SANDBOX_CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey, baseUrl: sandbox.baseUrl },
				});
				const control = new SandboxControl(sandbox.origin, target);
				return new E2eWorld(
					sandbox,
					control,
					n8n,
					client,
					credential,
					apiKey,
					started.apiKey,
					options.onN8nOutput,
				);
			} catch (error) {
				await n8n.stop();
				throw error;
			}
		} catch (error) {
			await sandbox.close();
			throw error;
		}
	}

	/** Stops n8n only (the sandbox keeps running and keeps its data). */
	async stopN8n(): Promise<void> {
		await this.n8n.stop();
	}

	/** Starts n8n again on the same user folder and port: active workflows come back by themselves. */
	async startN8n(): Promise<void> {
		this.n8n = await N8nInstance.start({
			userFolder: this.n8n.userFolder,
			port: this.n8n.port,
			onOutput: this.onN8nOutput,
		});
	}

	async stop(): Promise<void> {
		try {
			await this.n8n.stop();
		} finally {
			await this.sandbox.close();
		}
	}
}
