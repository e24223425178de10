/**
 * nginx (Debian's package, scripts/install-queue-services.sh) in front of n8n's webhook processes,
 * keeping one URL on one process: `hash $request_uri consistent` sends every copy of a delivery
 * to a workflow's webhook URL to the same webhook process, whose in-process duplicate memory then
 * sees them all. An own master on a free loopback port, with its config, temp folders, pid and logs
 * in a temporary folder, stopped by PID; the system's nginx service is never used.
 */
import { spawn } from 'node:child_process';
import {
	chmodSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../n8n/ports';
import { ownPid, stopOwnedPid } from './owned-pids';

const STARTUP_TIMEOUT_MS = 15_000;

function nginxBinary(): string {
	const binary = process.env.NGINX ?? '/usr/sbin/nginx';
	if (!existsSync(binary)) {
		throw new Error(
			`${binary} is missing. Run \`npm run e2e:install\` (scripts/install-queue-services.sh) first.`,
		);
	}
	return binary;
}

/**
 * The recipe in docs/queue-mode.md, with every path nginx writes inside `folder`. A port in
 * `drained` is marked `down`: its URLs go to the other webhook processes (how to stop one).
 */
export function balancerConfig(
	port: number,
	upstreamPorts: number[],
	folder: string,
	drained: number[] = [],
): string {
	const servers = upstreamPorts.map(
		(upstream) => `    server 127.0.0.1:${upstream}${drained.includes(upstream) ? ' down' : ''};`,
	);
	const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
		(kind) => `  ${kind}_temp_path ${join(folder, kind)};`,
	);
	return `daemon off;
pid ${join(folder, 'nginx.pid')};
error_log ${join(folder, 'error.log')} warn;
worker_processes 1;
events { worker_connections 1024; }
http {
${temp.join('\n')}
  log_format balancer '$request_uri\\t$status\\t$upstream_addr';
  access_log ${join(folder, 'access.log')} balancer;
  upstream n8n_webhooks {
    hash $request_uri consistent;
${servers.join('\n')}
    keepalive 32;
    # shorter than Node's 5 s keep-alive, so nginx never reuses a connection n8n is closing
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 16m;
    location / {
      proxy_pass http://n8n_webhooks;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
}

/** One request as the balancer logged it: the webhook processes it tried, last one answering. */
export interface BalancedRequest {
	uri: string;
	status: number;
	/** `127.0.0.1:<port>` of each webhook process tried, in order. */
	upstreams: string[];
}

/** The processes whose parent is `pid` (nginx's workers), from /proc. */
function childPids(pid: number): number[] {
	return readdirSync('/proc')
		.filter((name) => /^\d+$/.test(name))
		.filter((name) => {
			try {
				// "<pid> (<name>) <state> <ppid> …": the name may hold spaces, never ") "
				const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
				return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]) === pid;
			} catch {
				return false; // ended meanwhile
			}
		})
		.map(Number);
}

export class Balancer {
	private constructor(
		readonly port: number,
		readonly pid: number,
		private readonly folder: string,
		private readonly output: () => string,
		private readonly upstreamPorts: number[],
	) {}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Starts nginx in front of the webhook processes on `upstreamPorts` (they may start later). */
	static async start(upstreamPorts: number[]): Promise<Balancer> {
		const folder = mkdtempSync(join(tmpdir(), 'wfm-nginx-'));
		// as root, nginx's workers run as `nobody`: they must reach the temp folders it makes here
		chmodSync(folder, 0o711);
		const port = await freePort();
		const config = join(folder, 'nginx.conf');
		writeFileSync(config, balancerConfig(port, upstreamPorts, folder));
		// -e: the log nginx opens before it reads the config (/var/log/nginx as compiled) goes here too
		const child = spawn(
			nginxBinary(),
			['-p', folder, '-c', config, '-e', join(folder, 'error.log')],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		ownPid(child.pid!);
		const balancer = new Balancer(port, child.pid!, folder, () => output, upstreamPorts);
		const startedAt = Date.now();
		while (!(await balancer.listens())) {
			if (child.exitCode !== null || Date.now() - startedAt > STARTUP_TIMEOUT_MS) {
				const log = balancer.errorLog();
				await balancer.stop();
				throw new Error(`nginx did not start on port ${port}:\n${output}${log}`);
			}
			await new Promise((wake) => setTimeout(wake, 50));
		}
		return balancer;
	}

	/**
	 * Rewrites the config with the webhook processes on `ports` marked `down` (none: all up
	 * again) and reloads nginx (SIGHUP). Resolves once every worker of the old config has ended,
	 * that is once every request it passed on has been answered: from then on no request reaches
	 * a drained process, and it can be stopped.
	 */
	async drain(ports: number[], timeoutMs = 60_000): Promise<void> {
		const config = join(this.folder, 'nginx.conf');
		writeFileSync(config, balancerConfig(this.port, this.upstreamPorts, this.folder, ports));
		const oldWorkers = childPids(this.pid);
		process.kill(this.pid, 'SIGHUP');
		const startedAt = Date.now();
		const reloaded = () => {
			const workers = childPids(this.pid);
			return workers.length > 0 && !workers.some((worker) => oldWorkers.includes(worker));
		};
		while (!reloaded()) {
			if (Date.now() - startedAt > timeoutMs) {
				throw new Error(`nginx did not reload within ${timeoutMs} ms:\n${this.errorLog()}`);
			}
			await new Promise((wake) => setTimeout(wake, 50));
		}
	}

	/** Every request nginx has answered so far, oldest first. */
	served(): BalancedRequest[] {
		const log = join(this.folder, 'access.log');
		if (!existsSync(log)) return [];
		return readFileSync(log, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => {
				const [uri, status, upstreams] = line.split('\t');
				return { uri, status: Number(status), upstreams: upstreams.split(', ') };
			});
	}

	errorLog(): string {
		const log = join(this.folder, 'error.log');
		return (existsSync(log) ? readFileSync(log, 'utf8') : '') + this.output();
	}

	/** SIGTERM (nginx's fast stop: the master ends its workers, then itself), then the folder goes. */
	async stop(): Promise<void> {
		await stopOwnedPid(this.pid, 'SIGTERM');
		rmSync(this.folder, { recursive: true, force: true });
	}

	/**
	 * Whether nginx accepts connections. Not an HTTP request: one passed on before the webhook
	 * processes listen would mark both as failed, and nginx then gives a process that failed
	 * once, until it answers again, one request at a time.
	 */
	private async listens(): Promise<boolean> {
		return await new Promise((resolve) => {
			const socket = connect(this.port, '127.0.0.1');
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
		});
	}
}
