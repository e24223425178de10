/**
 * Webhook throughput: bursts of signed `member.updated` deliveries into our trigger (signature
 * verified, duplicates checked), into our trigger with "Ignore Duplicate Deliveries" off (the same
 * node without its duplicate memory: what that memory costs), and the same requests into n8n's
 * plain Webhook node (no verification) — the peer and the limit. Two senders: a small load
 * generator signing like the sandbox (bounded concurrency, each request timed from send to n8n's
 * answer), and the sandbox's own delivery engine (every delivery queued at once, timed from the
 * delivery's creation to its ack).
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { ENVELOPE_MEMORY_LIMITS } from '../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import {
	envelopeIds,
	postOverKeepAlive,
	signedDelivery,
	type SignedDelivery,
} from '../harness/signed-delivery';
import { eventually } from '../harness/poll';
import { chainWorkflow, workforceTriggerNode, type WorkflowNode } from '../harness/workflows';
import { MEASURED, type BenchEnvironment } from './environment';
import { median, percentile } from './memory';

export const WEBHOOK_CONTENDERS = ['ourTrigger', 'ourTriggerNoMemory', 'plainWebhook'] as const;
export type WebhookContender = (typeof WEBHOOK_CONTENDERS)[number];

export const WEBHOOK_CONTENDER_LABELS: Record<WebhookContender, string> = {
	ourTrigger: 'Workforce Management Trigger (signature verified)',
	ourTriggerNoMemory:
		'Workforce Management Trigger, Ignore Duplicate Deliveries off (signature verified)',
	plainWebhook: "n8n's Webhook node (no verification)",
};

export const SENDERS = ['generator', 'sandbox'] as const;
export type Sender = (typeof SENDERS)[number];

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
	sender: Sender;
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

/**
 * One stored execution record of a contender, measured after the bursts (our trigger's duplicate
 * memory full): bytes of the JSON n8n stores.
 */
export interface ExecutionRecordSize {
	contender: WebhookContender;
	executionId: string;
	/** The workflow copied into the record (nodes, settings, static data). */
	workflowDataBytes: number;
	/** Of which the workflow's static data. */
	staticDataBytes: number;
	/** The run data, as the stored (flatted) string. */
	runDataBytes: number;
}

export interface WebhookResults {
	measurements: WebhookMeasurement[];
	executionSizes: ExecutionRecordSize[];
}

interface Target {
	contender: WebhookContender;
	url: string;
	workflowId: string;
	/** The sandbox's webhook endpoint delivering to `url`. */
	endpointId: string;
	secret: string;
}

type Targets = Record<WebhookContender, Target>;

interface SendResult {
	sent: number;
	accepted: number;
	burstMs: number;
	latenciesMs: number[];
}

interface BurstResult extends SendResult {
	executionsSucceeded: number;
	executionsDoneMs: number;
}

/** `count` distinct envelopes (their own ids, so none is a duplicate), signed now. */
function signedDeliveries(
	count: number,
	member: Record<string, unknown>,
	secret: string,
): SignedDelivery[] {
	const options = { mode: MEASURED.target.mode, contentLength: true };
	return envelopeIds(count, randomBytes(8).toString('hex')).map((id) =>
		signedDelivery(secret, id, EVENT_TYPE, member, options),
	);
}

/** Sends every delivery with at most `concurrency` in flight; times each from send to answer. */
async function sendWithGenerator(
	target: Target,
	member: Record<string, unknown>,
	count: number,
	concurrency: number,
): Promise<SendResult> {
	const deliveries = signedDeliveries(count, member, target.secret);
	const startedAt = performance.now();
	const { statuses, latenciesMs } = await postOverKeepAlive(target.url, deliveries, concurrency);
	const burstMs = performance.now() - startedAt;
	const refused = statuses.filter((status) => status < 200 || status >= 300);
	if (refused.length > 0) {
		throw new Error(
			`${target.contender}: n8n refused ${refused.length} deliveries (${[...new Set(refused)]})`,
		);
	}
	return { sent: statuses.length, accepted: statuses.length, burstMs, latenciesMs };
}

async function setEndpointEnabled(
	env: BenchEnvironment,
	endpointId: string,
	enabled: boolean,
): Promise<void> {
	await env.control.api(MEASURED.apiKey, 'PATCH', `/webhook-endpoints/${endpointId}`, { enabled });
}

/**
 * Emits `count` events with only the target's endpoint enabled; the sandbox queues a delivery per
 * event and sends each as soon as it is queued. Times come from the delivery records (sandbox clock
 * in ms: creation → acknowledged).
 */
async function sendWithSandbox(
	env: BenchEnvironment,
	targets: Targets,
	target: Target,
	member: Record<string, unknown>,
	count: number,
): Promise<SendResult> {
	for (const other of Object.values(targets)) {
		await setEndpointEnabled(env, other.endpointId, other === target);
	}
	const emitted = await Promise.all(
		Array.from({ length: count }, () => env.control.emitEvent(EVENT_TYPE, member)),
	);
	const deliveryIds = new Set(emitted.flatMap((emit) => emit.delivery_ids));
	const deliveries = (await env.control.settleDeliveries()).filter((delivery) =>
		deliveryIds.has(delivery.id),
	);
	for (const other of Object.values(targets)) await setEndpointEnabled(env, other.endpointId, true);

	const delivered = deliveries.filter((delivery) => delivery.status === 'delivered');
	const createdAt = delivered.map((delivery) => Date.parse(String(delivery.created_at)));
	const deliveredAt = delivered.map((delivery) => Date.parse(String(delivery.delivered_at)));
	return {
		sent: deliveries.length,
		accepted: delivered.length,
		burstMs: Math.max(...deliveredAt) - Math.min(...createdAt),
		latenciesMs: delivered.map((_, index) => deliveredAt[index] - createdAt[index]),
	};
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

/** One burst through `send`, then waits for n8n to finish the executions it started. */
async function burst(
	env: BenchEnvironment,
	target: Target,
	send: () => Promise<SendResult>,
): Promise<BurstResult> {
	const before = await succeededExecutions(env, target.workflowId);
	const startedAt = performance.now();
	const sent = await send();
	const after = await waitForExecutions(env, target.workflowId, before + sent.accepted);
	return {
		...sent,
		executionsSucceeded: after - before,
		executionsDoneMs: performance.now() - startedAt,
	};
}

/** Our trigger on member.updated, in a workflow of its own; activation registers its endpoint. */
async function triggerTarget(
	env: BenchEnvironment,
	contender: 'ourTrigger' | 'ourTriggerNoMemory',
	options: Record<string, unknown>,
): Promise<Target> {
	const trigger = workforceTriggerNode(
		'Workforce Management Trigger',
		env.credentials.ours.acme,
		[EVENT_TYPE],
		options,
	);
	const workflowId = await env.createActiveWorkflow(
		chainWorkflow(`Bench: ${WEBHOOK_CONTENDER_LABELS[contender]}`, [trigger]),
	);
	const url = env.n8n.webhookUrl(trigger.webhookId, 'webhook');
	// n8n 2.41 answers `activate` before the trigger's webhook methods have run (about 1 s later).
	const endpoint = await eventually(
		`an endpoint registered for ${url}`,
		async () => (await env.control.endpoints()).find((candidate) => candidate.url === url),
		(found) => found?.secret !== undefined,
		{ timeoutMs: 30_000 },
	);
	return { contender, url, workflowId, endpointId: endpoint!.id, secret: endpoint!.secret! };
}

/** Our trigger with and without its duplicate memory, and a plain Webhook node. */
async function createTargets(env: BenchEnvironment): Promise<Targets> {
	const ourTrigger = await triggerTarget(env, 'ourTrigger', {});
	const ourTriggerNoMemory = await triggerTarget(env, 'ourTriggerNoMemory', {
		ignoreDuplicates: false,
	});

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
	const plainUrl = `${env.n8n.url}/webhook/${path}`;
	for (let attempt = 0; attempt < 150; attempt++) {
		const answer = await fetch(plainUrl, { method: 'POST', body: '{}' });
		await answer.arrayBuffer();
		if (answer.status !== 404) break;
		await new Promise((wake) => setTimeout(wake, 200));
	}
	// Registered by hand, as a user of the plain Webhook node would, so the sandbox can deliver to it.
	const plainEndpoint = await env.control.api<{ id: string; secret: string }>(
		MEASURED.apiKey,
		'POST',
		'/webhook-endpoints',
		{ url: plainUrl, events: [EVENT_TYPE], description: 'Benchmark: plain Webhook node' },
	);
	return {
		ourTrigger,
		ourTriggerNoMemory,
		plainWebhook: {
			contender: 'plainWebhook',
			url: plainUrl,
			workflowId: plainWorkflowId,
			endpointId: plainEndpoint.id,
			secret: plainEndpoint.secret,
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

function pooled(
	contender: WebhookContender,
	sender: Sender,
	results: BurstResult[],
): WebhookMeasurement {
	const latencies = results.flatMap((result) => result.latenciesMs);
	const accepted = results.reduce((total, result) => total + result.accepted, 0);
	const burstMs = results.reduce((total, result) => total + result.burstMs, 0);
	return {
		contender,
		sender,
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

/** A B C, then C B A, …: no contender always goes first or last. */
function alternating(rounds: number): WebhookContender[] {
	const order: WebhookContender[] = [];
	for (let round = 0; round < rounds; round++) {
		order.push(...(round % 2 === 0 ? WEBHOOK_CONTENDERS : [...WEBHOOK_CONTENDERS].reverse()));
	}
	return order;
}

async function executionRecordSize(
	env: BenchEnvironment,
	target: Target,
): Promise<ExecutionRecordSize> {
	const { id } = await env.latestExecution(target.workflowId);
	const stored = await env.client.storedExecution(id);
	const bytes = (value: unknown) =>
		Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value ?? null));
	return {
		contender: target.contender,
		executionId: id,
		workflowDataBytes: bytes(stored.workflowData),
		staticDataBytes: bytes(stored.workflowData.staticData ?? {}),
		runDataBytes: bytes(stored.data),
	};
}

export async function runWebhooks(
	env: BenchEnvironment,
	options: WebhookOptions,
): Promise<WebhookResults> {
	const targets = await createTargets(env);
	const member = await samplePayload(env);
	const senders: Record<Sender, (target: Target, count: number) => Promise<SendResult>> = {
		generator: (target, count) => sendWithGenerator(target, member, count, options.concurrency),
		sandbox: (target, count) => sendWithSandbox(env, targets, target, member, count),
	};

	// Warm-up through both senders; every delivery must be acknowledged.
	for (const sender of SENDERS) {
		for (const target of Object.values(targets)) {
			const warmUp = await burst(env, target, () => senders[sender](target, WARM_UP_DELIVERIES));
			if (warmUp.accepted !== WARM_UP_DELIVERIES) {
				throw new Error(
					`${target.contender} acknowledged ${warmUp.accepted} of ${WARM_UP_DELIVERIES} warm-up deliveries from the ${sender}`,
				);
			}
		}
	}

	// A full duplicate memory, as a busy trigger has it: as many distinct ids as it keeps (every
	// contender gets as many, so n8n's execution tables grow alike).
	for (const target of Object.values(targets)) {
		const fill = await burst(env, target, () =>
			senders.generator(target, ENVELOPE_MEMORY_LIMITS.maxEntries),
		);
		options.log(
			`  filled ${target.contender}: ${fill.accepted} distinct deliveries (the trigger keeps ${ENVELOPE_MEMORY_LIMITS.maxEntries} ids)`,
		);
	}

	const measurements: WebhookMeasurement[] = [];
	for (const sender of SENDERS) {
		const results = Object.fromEntries(
			WEBHOOK_CONTENDERS.map((contender) => [contender, [] as BurstResult[]]),
		) as Record<WebhookContender, BurstResult[]>;
		for (const contender of alternating(options.rounds)) {
			const target = targets[contender];
			const result = await env.profiled(
				`webhooks-${sender}-${contender}-${results[contender].length + 1}`,
				() => burst(env, target, () => senders[sender](target, options.deliveries)),
			);
			options.log(
				`  ${sender.padEnd(9)} → ${contender.padEnd(18)} ${result.accepted}/${result.sent} accepted in ` +
					`${result.burstMs.toFixed(0)} ms (${(result.accepted / (result.burstMs / 1000)).toFixed(0)}/s), ` +
					`p50 ${median(result.latenciesMs).toFixed(1)} ms, p95 ${percentile(result.latenciesMs, 0.95).toFixed(1)} ms, ` +
					`${result.executionsSucceeded} executions`,
			);
			results[contender].push(result);
		}
		for (const contender of WEBHOOK_CONTENDERS) {
			measurements.push(pooled(contender, sender, results[contender]));
		}
	}
	const executionSizes = [];
	for (const target of Object.values(targets)) {
		executionSizes.push(await executionRecordSize(env, target));
	}
	return { measurements, executionSizes };
}
