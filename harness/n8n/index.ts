/**
 * A real n8n (the line in N8N_VERSION, scripts/n8n/lines.json) for end-to-end tests, the demo and the benchmarks: our package installed the way
 * n8n installs community packages, n8n started headless on loopback, and a small client for the
 * REST and public API calls a user's clicks would make.
 */
import { DEFAULT_OWNER, N8nClient, type Owner } from './client';
import { prepareUserFolder } from './install';
import { n8nBinary } from './launch';
import { N8nInstance } from './process';

export * from './client';
export * from './install';
export * from './launch';
export * from './ports';
export * from './process';

export interface StartedN8n {
	n8n: N8nInstance;
	client: N8nClient;
	apiKey: string;
	owner: Owner;
}

/**
 * A fresh user folder with the package installed, n8n started, the owner account set up and an API
 * key created: what the e2e tests, the demo and the benchmarks start from.
 */
export async function startN8nWithPackage(
	options: {
		workFolder?: string;
		port?: number;
		env?: Record<string, string>;
		onOutput?: (chunk: string) => void;
		editor?: boolean;
	} = {},
): Promise<StartedN8n> {
	n8nBinary();
	const userFolder = await prepareUserFolder(options.workFolder);
	const n8n = await N8nInstance.start({
		userFolder,
		port: options.port,
		env: options.env,
		onOutput: options.onOutput,
		editor: options.editor,
	});
	try {
		return await setUpOwner(n8n);
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}

/** The owner account and an API key on a freshly started n8n (main, in queue mode). */
export async function setUpOwner(n8n: N8nInstance): Promise<StartedN8n> {
	const client = new N8nClient(n8n.url);
	await client.setupOwner(DEFAULT_OWNER);
	const apiKey = await client.createApiKey();
	return { n8n, client, apiKey, owner: DEFAULT_OWNER };
}
