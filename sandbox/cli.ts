import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import type { DeepPartialConfig } from './config';
import { DEFAULT_CONFIG } from './config';
import { startSandbox } from './index';

const usage =
	'Usage: npm run sandbox -- [--config <file.json>] [--port <port>] [--print-default-config]';

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			config: { type: 'string' },
			port: { type: 'string' },
			'print-default-config': { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(usage);
		return;
	}
	if (values['print-default-config']) {
		console.log(JSON.stringify(DEFAULT_CONFIG, null, 2));
		return;
	}
	const port = values.port === undefined ? 4010 : Number(values.port);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`--port must be an integer from 0 to 65535, got ${values.port}`);
	}
	const config = values.config
		? (JSON.parse(readFileSync(values.config, 'utf8')) as DeepPartialConfig)
		: undefined;

	const sandbox = await startSandbox({ config, port });
	console.log(`Sandbox listening on ${sandbox.baseUrl}`);
	console.log('API keys (send as Authorization: Bearer <key>):');
	for (const organization of sandbox.config.organizations) {
		for (const key of organization.keys) {
			console.log(
				`  ${key.key}  ${organization.slug} ${key.mode}  ${key.scopes.join(' ') || '(no scopes)'}`,
			);
		}
	}
	console.log(
		`Control interface: ${sandbox.origin}/__sandbox/  OpenAPI: ${sandbox.baseUrl}/openapi.json`,
	);

	const stop = async (signal: string) => {
		console.log(`${signal} received, stopping the sandbox`);
		await sandbox.close();
		process.exit(0);
	};
	process.once('SIGINT', () => void stop('SIGINT'));
	process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
