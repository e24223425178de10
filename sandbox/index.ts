import type { AddressInfo } from 'node:net';

import type { SandboxState } from './state';
import { buildApp } from './app';
import type { DeepPartialConfig, SandboxConfig } from './config';
import { resolveConfig } from './config';

export { DEFAULT_CONFIG, resolveConfig } from './config';
export type {
	ApiKeyConfig,
	DeepPartialConfig,
	Mode,
	OrganizationConfig,
	SandboxConfig,
	WebhooksConfig,
} from './config';
export type { ErrorBody } from './errors';
export type { EventEnvelope } from './store';

export interface Sandbox {
	/** `http://127.0.0.1:<port>` */
	origin: string;
	/** origin + `/api/v1`: what the credential's Base URL field holds. */
	baseUrl: string;
	config: SandboxConfig;
	/** In-process access for tests written in this repo; outside tests use the control routes. */
	state: SandboxState;
	close(): Promise<void>;
}

export async function startSandbox(
	options: { config?: DeepPartialConfig; port?: number } = {},
): Promise<Sandbox> {
	const config = resolveConfig(options.config);
	const { app, state } = buildApp(config);
	await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
	const { port } = app.server.address() as AddressInfo;
	const origin = `http://127.0.0.1:${port}`;
	return {
		origin,
		baseUrl: `${origin}/api/v1`,
		config,
		state,
		close: async () => {
			await state.engine.stop();
			await app.close();
		},
	};
}
