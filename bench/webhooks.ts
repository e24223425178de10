/**
 * Webhook throughput: bursts of signed `member.updated` deliveries into our trigger (signature
 * verified, duplicates checked) and the same requests into n8n's plain Webhook node (no
 * verification) — the peer and the limit. A small load generator sends them with bounded
 * concurrency and times each request from send to n8n's acknowledgement.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

import { chainWorkflow, workforceTriggerNode, type WorkflowNode } from '../test/e2e/workflows';
import { MEASURED, type BenchEnvironment } from './environment';
import { median, percentile } from './memory';

export const WEBHOOK_CONTENDERS = ['ourTrigger', 'plainWebhook'] as const;
export type WebhookContender = (typeof WEBHOOK_CONTENDERS)[number];

export const WEBHOOK_CONTENDER_LABELS: Record<WebhookContender, string> = {
	ourTrigger: 'Workforce Management Trigger (signature verified)',
	plainWebhook: "n8n's Webhook node (no verification)",
};

const EVENT_TYPE = 'member.updated';
const WARM_UP_DELIVERIES = 25;
const EXECUTIONS_TIMEOUT_MS = 180_000;

export interface WebhookOptions {
	deliveries: number;
	concurrency: number;
	/** Rounds per contender, alternating A B B A …; figures pool all rounds. */
	rounds: number;
	log: (line: string) => void;
}

export interface WebhookMeasurement {
	contender: WebhookContender;
	sent: number;
	accepted: number;
	/** Accepted deliveries per second of burst (first send to last acknowledgement). */
	acceptedPerSecond: number;
	p50Ms: number;
	p95Ms: number;
	/** Executions n8n finished successfully for the measured deliveries. */
	executionsSucceeded: number;
	/** From the first send until n8n had finished every execution of the burst. */
	executionsDoneMs: number;
	burstMs: number;
}

interface Delivery {
	body: string;
	headers: Record<string, string>;
}

interface Target {
	contender: WebhookContender;
	url: string;
	workflowId: string;
	secret: string;
}

interface BurstResult {
	sent: number;
	accepted: number;
	burstMs: number;
	latenciesMs: number[];
	executionsSucceeded: number;
	executionsDoneMs: number;
}

/** The spec's signature: hex HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint's secret. */
function signatureHeader(secret: string, body: string, unixSeconds: number): string {
	const signature = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
	return `t=${unixSeconds},v1=${signature}`;
}

/** `count` distinct envelopes (their own ids, so none is a duplicate), signed now. */
function signedDeliveries(
	count: number,
	member: Record<string, unknown>,
	secret: string,
): Delivery[] {
	const unixSeconds = Math.floor(Date.now() / 1000);
	return Array.from({ length: count }, () => {
		const id = `evt_${randomBytes(12).toString('hex')}`;
		const body = JSON.stringify({
			id,
			type: EVENT_TYPE,
			created_at: new Date().toISOString(),
			mode: MEASURED.target.mode,
			data: member,
		});
		return {
			body,
			headers: {
				'content-type': 'application/json',
				'content-length': String(Buffer.byteLength(body)),
				'x-webhook-id': id,
				'x-webhook-signature': signatureHeader(secret, body, unixSeconds),
			},
		};
	});
}

function post(agent: Agent, url: string, delivery: Delivery): Promise<number> {
	return new Promise((resolve, reject) => {
		const outgoing = request(
			url,
			{ method: 'POST', agent, headers: delivery.headers },
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
				response.on('error', reject);
			},
		);
		outgoing.on('error', reject);
		outgoing.end(delivery.body);
	});
}

/** Sends every delivery with at most `concurrency` in flight; times each from send to answer. */
async function sendBurst(
	url: string,
	deliveries: Delivery[],
	concurrency: number,
): Promise<{ statuses: number[]; latenciesMs: number[]; burstMs: number }> {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	const statuses: number[] = [];
	const latenciesMs: number[] = [];
	let next = 0;
	const startedAt = performance.now();
	const worker = async () => {
		while (next < deliveries.length) {
			const delivery = deliveries[next++];
			const sentAt = performance.now();
			statuses.push(await post(agent, url, delivery));
			latenciesMs.push(performance.now() - sentAt);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const burstMs = performance.now() - startedAt;
	agent.destroy();
	return { statuses, latenciesMs, burstMs };
}

async function succeededExecutions(env: BenchEnvironment, workflowId: string): Promise<number> {
	return (await env.countExecutions(workflowId)).success ?? 0;
}

/** Waits until n8n has finished `expected` more successful executions than `before`. */
async function waitForExecutions(
	env: BenchEnvironment,
	workflowId: string,
	expected: number,
): Promise<number> {
	const startedAt = Date.now();
	for (;;) {
		const succeeded = await succeededExecutions(env, workflowId);
		if (succeeded >= expected || Date.now() - startedAt > EXECUTIONS_TIMEOUT_MS) return succeeded;
		await new Promise((wake) => setTimeout(wake, 200));
	}
}

async function burst(
	env: BenchEnvironment,
	target: Target,
	member: Record<string, unknown>,
	count: number,
	concurrency: number,
): Promise<BurstResult> {
	const before = await succeededExecutions(env, target.workflowId);
	const deliveries = signedDeliveries(count, member, target.secret);
	const startedAt = performance.now();
	const { statuses, latenciesMs, burstMs } = await sendBurst(target.url, deliveries, concurrency);
	const accepted = statuses.filter((status) => status >= 200 && status < 300).length;
	if (accepted < statuses.length) {
		const refused = statuses.filter((status) => status < 200 || status >= 300);
		throw new Error(
			`${target.contender}: n8n refused ${refused.length} deliveries (${[...new Set(refused)]})`,
		);
	}
	const after = await waitForExecutions(env, target.workflowId, before + accepted);
	return {
		sent: statuses.length,
		accepted,
		burstMs,
		latenciesMs,
		executionsSucceeded: after - before,
		executionsDoneMs: performance.now() - startedAt,
	};
}

/** Our trigger on member.updated (activation registers its endpoint) and a plain Webhook node. */
async function createTargets(env: BenchEnvironment): Promise<Record<WebhookContender, Target>> {
	const trigger = workforceTriggerNode('Workforce Management Trigger', env.credentials.ours.acme, [
		EVENT_TYPE,
	]);
	const triggerWorkflowId = await env.createActiveWorkflow(
		chainWorkflow('Bench: our trigger', [trigger]),
	);
	const triggerUrl = env.n8n.webhookUrl(trigger.webhookId, 'webhook');
	const endpoint = (await env.control.endpoints()).find(
		(candidate) => candidate.url === triggerUrl,
	);
	if (!endpoint?.secret) throw new Error(`Activation registered no endpoint for ${triggerUrl}`);

	const path = 'bench-plain-webhook';
	const plainWebhook: WorkflowNode = {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
	const plainWorkflowId = await env.createActiveWorkflow(
		chainWorkflow('Bench: plain Webhook node', [plainWebhook]),
	);
	return {
		ourTrigger: {
			contender: 'ourTrigger',
			url: triggerUrl,
			workflowId: triggerWorkflowId,
			secret: endpoint.secret,
		},
		plainWebhook: {
			contender: 'plainWebhook',
			url: `${env.n8n.url}/webhook/${path}`,
			workflowId: plainWorkflowId,
			secret: endpoint.secret,
		},
	};
}

/** A real member record as the event payload. */
async function samplePayload(env: BenchEnvironment): Promise<Record<string, unknown>> {
	const page = await env.control.api<{ data: Array<Record<string, unknown>> }>(
		MEASURED.apiKey,
		'GET',
		'/members?limit=1',
	);
	if (page.data.length > 0) return page.data[0];
	await env.control.seedMembers(1);
	return await samplePayload(env);
}

function pooled(contender: WebhookContender, results: BurstResult[]): WebhookMeasurement {
	const latencies = results.flatMap((result) => result.latenciesMs);
	const accepted = results.reduce((total, result) => total + result.accepted, 0);
	const burstMs = results.reduce((total, result) => total + result.burstMs, 0);
	return {
		contender,
		sent: results.reduce((total, result) => total + result.sent, 0),
		accepted,
		acceptedPerSecond: accepted / (burstMs / 1000),
		p50Ms: median(latencies),
		p95Ms: percentile(latencies, 0.95),
		executionsSucceeded: results.reduce((total, result) => total + result.executionsSucceeded, 0),
		executionsDoneMs: median(results.map((result) => result.executionsDoneMs)),
		burstMs,
	};
}

export async function runWebhooks(
	env: BenchEnvironment,
	options: WebhookOptions,
): Promise<WebhookMeasurement[]> {
	const targets = await createTargets(env);
	const member = await samplePayload(env);

	// The sandbox's own delivery engine first: it signs and sends, and the trigger must accept it.
	for (let index = 0; index < WARM_UP_DELIVERIES; index++) {
		await env.control.emitEvent(EVENT_TYPE, member);
	}
	const deliveries = await env.control.settleDeliveries();
	const failed = deliveries.filter((delivery) => delivery.status !== 'delivered');
	if (failed.length > 0) {
		throw new Error(
			`The trigger did not accept ${failed.length} sandbox deliveries: ${JSON.stringify(failed[0])}`,
		);
	}
	for (const target of Object.values(targets)) {
		await burst(env, target, member, WARM_UP_DELIVERIES, options.concurrency);
	}

	const order: WebhookContender[] = [];
	for (let round = 0; round < options.rounds; round++) {
		order.push(...(round % 2 === 0 ? WEBHOOK_CONTENDERS : [...WEBHOOK_CONTENDERS].reverse()));
	}
	const results: Record<WebhookContender, BurstResult[]> = { ourTrigger: [], plainWebhook: [] };
	for (const contender of order) {
		const result = await burst(
			env,
			targets[contender],
			member,
			options.deliveries,
			options.concurrency,
		);
		options.log(
			`  ${contender.padEnd(12)} ${result.accepted}/${result.sent} accepted in ${result.burstMs.toFixed(0)} ms ` +
				`(${(result.accepted / (result.burstMs / 1000)).toFixed(0)}/s), p50 ${median(result.latenciesMs).toFixed(1)} ms, ` +
				`p95 ${percentile(result.latenciesMs, 0.95).toFixed(1)} ms, ${result.executionsSucceeded} executions`,
		);
		results[contender].push(result);
	}
	return WEBHOOK_CONTENDERS.map((contender) => pooled(contender, results[contender]));
}
