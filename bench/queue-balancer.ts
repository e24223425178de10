/**
 * Webhook throughput in queue mode: bursts of signed deliveries into our trigger through nginx (the
 * recipe of docs/queue-mode.md, harness/queue/balancer.ts) and straight into the webhook
 * process the trigger's path hashes to. Both end on the same process: the difference is nginx's
 * hop. Rounds alternate (A B B A …); each burst waits for the worker to finish the one before.
 *
 *   npx tsx bench/queue-balancer.ts [--deliveries=500] [--concurrency=16] [--rounds=4]
 *
 * N8N_VERSION picks the n8n line (default: the newest tested). Prints the figures side by side and
 * writes bench/results/<n8n version>/queue-balancer.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { PACKAGE_ROOT } from '../harness/constants';
import { N8N_VERSION, runtimeDescription } from '../harness/n8n';
import { eventually } from '../harness/poll';
import { envelopeIds, postOverKeepAlive, signedDelivery } from '../harness/signed-delivery';
import { chainWorkflow, workforceTriggerNode } from '../harness/workflows';
import { E2eWorld } from '../harness/world';
import { median, percentile } from './memory';

const ROUTES = ['balancer', 'direct'] as const;
type Route = (typeof ROUTES)[number];
const EVENT = 'member.updated';
const WARM_UP_DELIVERIES = 50;

interface Burst {
	accepted: number;
	burstMs: number;
	latenciesMs: number[];
}

function option(name: string, fallback: number): number {
	const given = process.argv.find((argument) => argument.startsWith(`--${name}=`));
	const value = given ? Number(given.split('=')[1]) : fallback;
	if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive integer`);
	return value;
}

function log(line: string): void {
	console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function main(): Promise<void> {
	const deliveries = option('deliveries', 500);
	const concurrency = option('concurrency', 16);
	const rounds = option('rounds', 4);
	log(`Starting the sandbox and ${runtimeDescription()} in queue mode behind nginx`);
	const world = await E2eWorld.start({ queue: true, balancer: true });
	try {
		const cluster = world.queue!;
		const balancer = cluster.balancer!;
		const trigger = workforceTriggerNode('On member updated', world.credential, [EVENT]);
		const { id: workflowId } = await world.client.createWorkflow(
			chainWorkflow('Bench: queue balancer', [trigger]),
		);
		await world.client.activateWorkflow(workflowId);
		const [endpoint] = await world.control.endpoints();
		const path = `/webhook/${trigger.webhookId}/webhook`;
		let sent = 0;

		const burst = async (url: string, count: number): Promise<Burst> => {
			const batch = envelopeIds(count, randomBytes(6).toString('hex')).map((id) =>
				signedDelivery(endpoint.secret!, id, EVENT, undefined, { contentLength: true }),
			);
			const startedAt = performance.now();
			const { statuses, latenciesMs } = await postOverKeepAlive(url, batch, concurrency);
			const burstMs = performance.now() - startedAt;
			const accepted = statuses.filter((status) => status === 200).length;
			if (accepted !== count) throw new Error(`${url}: ${count - accepted} of ${count} refused`);
			sent += count;
			await eventually(
				`${sent} successful executions`,
				async () => (await world.client.countExecutions(workflowId)).success ?? 0,
				(succeeded) => succeeded >= sent,
				{ timeoutMs: 300_000, intervalMs: 500 },
			);
			return { accepted, burstMs, latenciesMs };
		};

		await burst(`${balancer.url}${path}`, WARM_UP_DELIVERIES);
		const hashedTo = balancer
			.served()
			.filter((request) => request.uri === path)
			.at(-1)!
			.upstreams.at(-1);
		const target = cluster.webhooks.find((instance) => `127.0.0.1:${instance.port}` === hashedTo)!;
		await burst(`${target.url}${path}`, WARM_UP_DELIVERIES);
		const urls: Record<Route, string> = {
			balancer: `${balancer.url}${path}`,
			direct: `${target.url}${path}`,
		};

		const bursts: Record<Route, Burst[]> = { balancer: [], direct: [] };
		for (let round = 0; round < rounds; round++) {
			for (const route of round % 2 === 0 ? ROUTES : [...ROUTES].reverse()) {
				const result = await burst(urls[route], deliveries);
				bursts[route].push(result);
				log(
					`  ${route.padEnd(8)} ${result.accepted} in ${result.burstMs.toFixed(0)} ms ` +
						`(${(result.accepted / (result.burstMs / 1000)).toFixed(0)}/s), ` +
						`p50 ${median(result.latenciesMs).toFixed(1)} ms, p95 ${percentile(result.latenciesMs, 0.95).toFixed(1)} ms`,
				);
			}
		}

		const figures = ROUTES.map((route) => {
			const latencies = bursts[route].flatMap((result) => result.latenciesMs);
			const accepted = bursts[route].reduce((total, result) => total + result.accepted, 0);
			const burstMs = bursts[route].reduce((total, result) => total + result.burstMs, 0);
			return {
				route,
				accepted,
				perSecond: accepted / (burstMs / 1000),
				p50Ms: median(latencies),
				p95Ms: percentile(latencies, 0.95),
			};
		});
		const cell = (values: string[]) => values.map((value) => value.padStart(22)).join('');
		console.log(
			`\nn8n ${N8N_VERSION}, ${deliveries} deliveries × ${rounds} rounds, ${concurrency} in flight ` +
				`(load average ${loadavg()[0].toFixed(1)}: the machine's other work shares its cores)`,
		);
		console.log(
			`${''.padEnd(16)}${cell(['through nginx', `straight to ${target === cluster.webhooks[0] ? 'webhook-1' : 'webhook-2'}`])}`,
		);
		console.log(
			`${'deliveries/s'.padEnd(16)}${cell(figures.map((figure) => figure.perSecond.toFixed(0)))}`,
		);
		console.log(
			`${'p50 latency ms'.padEnd(16)}${cell(figures.map((figure) => figure.p50Ms.toFixed(1)))}`,
		);
		console.log(
			`${'p95 latency ms'.padEnd(16)}${cell(figures.map((figure) => figure.p95Ms.toFixed(1)))}`,
		);

		const folder = join(PACKAGE_ROOT, 'bench', 'results', N8N_VERSION);
		mkdirSync(folder, { recursive: true });
		writeFileSync(
			join(folder, 'queue-balancer.json'),
			`${JSON.stringify(
				{
					finishedAt: new Date().toISOString(),
					settings: { deliveries, concurrency, rounds },
					loadAverage: loadavg()[0],
					figures,
				},
				null,
				2,
			)}\n`,
		);
	} finally {
		await world.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
