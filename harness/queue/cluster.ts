/**
 * n8n 2.8.4 in queue mode with our package: Postgres + Redis, then main (editor, API, activation),
 * a worker (runs every execution) and two webhook processes (serve `/webhook/…`), each with its own
 * user folder holding the package installed from its tarball, all sharing one encryption key.
 */

import { copyUserFolder, installedPackage } from '../n8n/install';
import { n8nBinary } from '../n8n/launch';
import { freePort } from '../n8n/ports';
import { N8nInstance, type N8nStartOptions } from '../n8n/process';
import { Balancer } from './balancer';
import { startPostgres, startRedis, type PostgresService, type RedisService } from './services';

export interface QueueClusterOptions {
	/** Where the tarball and the user folders go (kept; the caller removes it). */
	workFolder: string;
	/** main's port (0 or absent: a free one). */
	mainPort?: number;
	/** Every chunk any process prints, tagged with the process's role. */
	onOutput?: (role: QueueRole, chunk: string) => void;
	/**
	 * nginx in front of the two webhook processes (balancer.ts): triggers register its URL. Without
	 * it, they register webhook-1's.
	 */
	balancer?: boolean;
	/** Whether main serves n8n's editor (N8nStartOptions.editor; default true). */
	editor?: boolean;
}

export type QueueRole = 'main' | 'worker' | 'webhook-1' | 'webhook-2';

/** What every n8n process of the cluster shares (N8N_ENCRYPTION_KEY: see process.ts). */
function queueEnvironment(
	postgres: PostgresService,
	redis: RedisService,
	webhookBaseUrl: string,
): Record<string, string> {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		WEBHOOK_URL: `${webhookBaseUrl}/`,
	};
}

/** Four user folders with the package, copied from its installation (`installedPackage`). */
async function userFoldersWithPackage(workFolder: string): Promise<string[]> {
	const installed = await installedPackage();
	return [0, 1, 2, 3].map(() => copyUserFolder(installed, workFolder));
}

export class QueueCluster {
	private constructor(
		readonly main: N8nInstance,
		readonly worker: N8nInstance,
		readonly webhooks: [N8nInstance, N8nInstance],
		private readonly services: { postgres: PostgresService; redis: RedisService },
		private readonly relaunch: (index: 0 | 1) => Promise<N8nInstance>,
		readonly balancer?: Balancer,
	) {}

	/** Starts webhook process `index` again, after it was stopped: same port, folder and settings. */
	async restartWebhook(index: 0 | 1): Promise<void> {
		await this.webhooks[index].stop();
		this.webhooks[index] = await this.relaunch(index);
	}

	/** Every n8n process with its role, in start order. */
	get processes(): Array<[QueueRole, N8nInstance]> {
		return [
			['main', this.main],
			['worker', this.worker],
			['webhook-1', this.webhooks[0]],
			['webhook-2', this.webhooks[1]],
		];
	}

	get postgres(): PostgresService {
		return this.services.postgres;
	}

	get redis(): RedisService {
		return this.services.redis;
	}

	/**
	 * Starts one after the other, each when the previous is ready (main creates the schema; the
	 * others need it): main, worker, webhook-1 (the URL triggers register, unless a balancer
	 * stands in front), webhook-2. The balancer starts first: every process is told its URL.
	 */
	static async start(options: QueueClusterOptions): Promise<QueueCluster> {
		n8nBinary();
		// the package is packed and installed while Postgres and Redis start
		const installing = userFoldersWithPackage(options.workFolder);
		installing.catch(() => undefined);
		const started: N8nInstance[] = [];
		const postgres = await startPostgres();
		let redis: RedisService | undefined;
		let balancer: Balancer | undefined;
		try {
			redis = await startRedis();
			const userFolders = await installing;
			const webhookPorts = [await freePort(), await freePort()];
			if (options.balancer) balancer = await Balancer.start(webhookPorts);
			const shared = queueEnvironment(
				postgres,
				redis,
				balancer?.url ?? `http://127.0.0.1:${webhookPorts[0]}`,
			);
			const roles: QueueRole[] = ['main', 'worker', 'webhook-1', 'webhook-2'];
			const launch = (
				index: number,
				command: N8nStartOptions['command'],
				port?: number,
				env: Record<string, string> = {},
			) =>
				N8nInstance.start({
					userFolder: userFolders[index],
					command,
					port,
					env: { ...shared, ...env },
					editor: command === 'start' ? options.editor : undefined,
					onOutput: options.onOutput && ((chunk) => options.onOutput!(roles[index], chunk)),
				});
			const start = async (...args: Parameters<typeof launch>) => {
				const instance = await launch(...args);
				started.push(instance);
				return instance;
			};
			const main = await start(0, 'start', options.mainPort, {
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			});
			const worker = await start(1, 'worker', undefined, {
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			});
			const first = await start(2, 'webhook', webhookPorts[0]);
			const second = await start(3, 'webhook', webhookPorts[1]);
			const relaunch = (index: 0 | 1) => launch(2 + index, 'webhook', webhookPorts[index]);
			return new QueueCluster(
				main,
				worker,
				[first, second],
				{ postgres, redis },
				relaunch,
				balancer,
			);
		} catch (error) {
			for (const instance of started.reverse()) await instance.stop();
			await balancer?.stop();
			await redis?.stop();
			await postgres.stop();
			throw error;
		}
	}

	/** Stops the n8n processes (webhooks and worker first), then nginx, Redis and Postgres, by PID. */
	async stop(): Promise<void> {
		try {
			for (const [, instance] of this.processes.reverse()) await instance.stop();
			await this.balancer?.stop();
		} finally {
			await this.services.redis.stop();
			await this.services.postgres.stop();
		}
	}
}
