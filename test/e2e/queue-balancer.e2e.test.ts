/**
 * Exactly once in queue mode with nginx in front of the two webhook processes
 * (harness/queue/balancer.ts, docs/queue-mode.md): `hash $request_uri consistent` keeps the
 * trigger's URL on one webhook process, whose in-process duplicate memory sees every copy. Beside
 * it, the same copies posted straight to both processes: the limit the balancer removes. The steps
 * share one workflow and build on each other, in order; the last stops a webhook process.
 */
import { randomBytes } from 'node:crypto';

import { nodeOutput } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import {
	envelopeIds,
	postAllAtOnce,
	postAndStopMidway,
	postAsTheApiRetries,
	postOverKeepAlive,
	signedDelivery,
	type SignedDelivery,
	type TimedAnswer,
} from '../../harness/signed-delivery';
import { chainWorkflow, workforceTriggerNode } from '../../harness/workflows';
import { useE2eWorld } from './use-world';

const world = useE2eWorld({ queue: true, balancer: true });
const cluster = () => world().queue!;
const balancer = () => cluster().balancer!;

const TRIGGER = 'On member updated';
const EVENT = 'member.updated';
const PAIRS = 20;
const IN_FLIGHT = 16;
const STEP_TIMEOUT_MS = 420_000;

let workflowId: string;
let webhookId: string;
let secret: string;

const balancedUrl = () => `${balancer().url}/webhook/${webhookId}/webhook`;
const directUrls = () =>
	cluster().webhooks.map((instance) => instance.webhookUrl(webhookId, 'webhook'));
const upstreamOf = (index: number) => `127.0.0.1:${cluster().webhooks[index].port}`;

interface Batch {
	ids: string[];
	deliveries: SignedDelivery[];
}

/** `count` envelopes no step has sent, signed with the endpoint's secret. */
function freshBatch(count: number): Batch {
	const ids = envelopeIds(count, randomBytes(6).toString('hex'));
	const deliveries = ids.map((id) =>
		signedDelivery(secret, id, EVENT, undefined, { contentLength: true }),
	);
	return { ids, deliveries };
}

/** Each delivery as two copies posted at the same moment, to `urls[0]` and `urls[1]`, pair after pair. */
async function sendPairs(urls: string[], batch: Batch): Promise<number[]> {
	const statuses: number[] = [];
	for (const delivery of batch.deliveries) {
		const pair = await Promise.all(urls.map((url) => postAllAtOnce(url, [delivery])));
		statuses.push(...pair.flat());
	}
	return statuses;
}

/**
 * How many executions ran each envelope, once n8n has finished every execution it queued (each
 * answer came after its execution was queued, so the count of executions is final when asked).
 */
async function runsOf(ids: string[]): Promise<number[]> {
	const executions = await world().client.settledExecutions(workflowId);
	const runs = new Map<string, number>();
	for (const execution of executions) {
		const id = String(nodeOutput(execution, TRIGGER).id);
		runs.set(id, (runs.get(id) ?? 0) + 1);
	}
	return ids.map((id) => runs.get(id) ?? 0);
}

/** `id: runs` for every envelope that did not run exactly once. */
function notOnce(ids: string[], runs: number[]): string[] {
	return ids.flatMap((id, index) => (runs[index] === 1 ? [] : [`${id}: ${runs[index]}`]));
}

/** The webhook process that answered each request to the trigger nginx logged, from its `from`-th on. */
function upstreamsAnswering(from = 0): string[] {
	const path = new URL(balancedUrl()).pathname;
	return balancer()
		.served()
		.slice(from)
		.filter((request) => request.uri === path)
		.map((request) => request.upstreams.at(-1)!);
}

/** The webhook processes the balancer sent the trigger's requests to, from its `from`-th on. */
function upstreamsServing(from: number): Set<string> {
	return new Set(upstreamsAnswering(from));
}

beforeAll(async () => {
	await world().control.reset();
	const trigger = workforceTriggerNode(TRIGGER, world().credential, [EVENT]);
	webhookId = trigger.webhookId;
	workflowId = (
		await world().client.createWorkflow(chainWorkflow('Queue balancer: member updated', [trigger]))
	).id;
});

test("activation registers one endpoint, with the balancer's URL; the API's delivery runs once", async () => {
	await world().client.activateWorkflow(workflowId);
	const endpoints = await world().control.endpoints();
	expect(endpoints.map((endpoint) => endpoint.url)).toEqual([balancedUrl()]);
	secret = endpoints[0].secret!;

	const { event } = await world().control.emitEvent(EVENT);
	const [delivery] = await world().control.settleDeliveries();
	expect(delivery).toEqual(expect.objectContaining({ status: 'delivered', event_id: event.id }));
	expect(await runsOf([event.id])).toEqual([1]);
});

test(
	`${PAIRS} pairs of copies posted at the same moment through the balancer: each runs once, all on one webhook process`,
	async () => {
		const batch = freshBatch(PAIRS);
		const logged = balancer().served().length;

		const statuses = await sendPairs([balancedUrl(), balancedUrl()], batch);
		expect(statuses).toEqual(Array(2 * PAIRS).fill(200));

		const runs = await runsOf(batch.ids);
		const twice = runs.filter((count) => count > 1).length;
		console.log(`through the balancer: ${twice} of ${PAIRS} simultaneous pairs ran twice`);
		expect(notOnce(batch.ids, runs)).toEqual([]);
		expect(upstreamsServing(logged).size).toBe(1);
	},
	STEP_TIMEOUT_MS,
);

test(
	`the contrast: ${PAIRS} pairs posted straight to the two webhook processes, none lost (how many ran twice is printed)`,
	async () => {
		const batch = freshBatch(PAIRS);

		const statuses = await sendPairs(directUrls(), batch);
		expect(statuses).toEqual(Array(2 * PAIRS).fill(200));

		const runs = await runsOf(batch.ids);
		const twice = runs.filter((count) => count === 2).length;
		console.log(
			`straight to two webhook processes: ${twice} of ${PAIRS} simultaneous pairs ran twice`,
		);
		expect(runs.filter((count) => count < 1 || count > 2)).toEqual([]);
	},
	STEP_TIMEOUT_MS,
);

test(
	`100 deliveries with ${IN_FLIGHT} in flight through the balancer, then the same 100 again: none runs again`,
	async () => {
		const batch = freshBatch(100);

		const first = await postAsTheApiRetries(balancedUrl(), batch.deliveries, IN_FLIGHT);
		expect(first.statuses).toEqual(Array(100).fill(200));
		const again = await postAsTheApiRetries(balancedUrl(), batch.deliveries, IN_FLIGHT);
		expect(again.statuses).toEqual(Array(100).fill(200));

		const runs = await runsOf(batch.ids);
		console.log(
			`through the balancer: ${runs.filter((count) => count > 1).length} of 100 ran again when sent a second time`,
		);
		expect(notOnce(batch.ids, runs)).toEqual([]);
	},
	STEP_TIMEOUT_MS,
);

/** The webhook process (0 or 1) the balancer sent the trigger's last request to. */
function servingProcess(): 0 | 1 {
	return upstreamsAnswering().at(-1) === upstreamOf(0) ? 0 : 1;
}

const STOP_AFTER_ANSWERS = 40;
/** Sends `sent` with IN_FLIGHT in flight, and `stop` once STOP_AFTER_ANSWERS are answered. */
const stopMidway = (sent: Batch, stop: () => Promise<void>) =>
	postAndStopMidway(balancedUrl(), sent.deliveries, IN_FLIGHT, STOP_AFTER_ANSWERS, stop);

describe('the webhook process the path hashes to stops in the middle of 100 deliveries, not drained first', () => {
	let sent: Batch;
	let answers: TimedAnswer[];
	let stopBeganAt = 0;
	let stoppedAt = 0;
	let after: Batch;
	let target: 0 | 1;

	beforeAll(async () => {
		sent = freshBatch(100);
		after = freshBatch(20);
		target = servingProcess();
		({ answers, stopBeganAt, stoppedAt } = await stopMidway(sent, () =>
			cluster().webhooks[target].stop(),
		));
	}, STEP_TIMEOUT_MS);

	test(
		'nginx sends the path to the other webhook process: deliveries after the stop are answered 200 there and run once, also when sent again',
		async () => {
			const logged = balancer().served().length;
			const first = await postAsTheApiRetries(balancedUrl(), after.deliveries, IN_FLIGHT);
			const again = await postAsTheApiRetries(balancedUrl(), after.deliveries, IN_FLIGHT);

			expect([...first.statuses, ...again.statuses]).toEqual(Array(40).fill(200));
			expect([...upstreamsServing(logged)]).toEqual([upstreamOf(1 - target)]);
			expect(notOnce(after.ids, await runsOf(after.ids))).toEqual([]);
		},
		STEP_TIMEOUT_MS,
	);

	test(
		'sent again after the stop: none accepted before the stop runs again, none answered 200 is lost (what was cut off is counted: the limit a drain removes)',
		async () => {
			const again = await postAsTheApiRetries(balancedUrl(), sent.deliveries, IN_FLIGHT);
			expect(again.statuses).toEqual(Array(100).fill(200));
			const runs = await runsOf(sent.ids);

			const indexesWhere = (holds: (answer: TimedAnswer) => boolean) =>
				answers.flatMap((answer, index) => (holds(answer) ? [index] : []));
			const acceptedBefore = indexesWhere(
				(answer) => answer.answeredAtMs < stopBeganAt && answer.status === 200,
			);
			const inFlight = indexesWhere(
				(answer) => answer.sentAtMs < stoppedAt && answer.answeredAtMs >= stopBeganAt,
			);
			const answered200 = indexesWhere((answer) => answer.status === 200);
			const cutOff = indexesWhere((answer) => answer.status !== 200);
			const count = (indexes: number[], holds: (runs: number) => boolean) =>
				indexes.filter((index) => holds(runs[index])).length;
			const lostAfter200 = (indexes: number[]) => {
				const lost = indexes.filter((index) => runs[index] < 1);
				const when = lost.map(
					(index) =>
						`sent ${(answers[index].sentAtMs - stopBeganAt).toFixed(0)} ms, answered ${(answers[index].answeredAtMs - stopBeganAt).toFixed(0)} ms after the stop began`,
				);
				return `${lost.length}${when.length ? ` (${when.join('; ')})` : ''}`;
			};
			console.log(
				`failover without a drain (stop after ${STOP_AFTER_ANSWERS} of 100 answered, ${(stoppedAt - stopBeganAt).toFixed(0)} ms to stop): ` +
					`${acceptedBefore.length} accepted before the stop, ${count(acceptedBefore, (n) => n > 1)} of them ran again; ` +
					`${inFlight.length} in flight at the stop, ${count(inFlight, (n) => n > 1)} of them ran again; ` +
					`${cutOff.length} answered other than 200 (${[...new Set(answers.map((answer) => answer.status))].join(', ')}), ` +
					`${count(cutOff, (n) => n < 1)} of them did not run when sent again; ` +
					`answered 200 and never ran: ${lostAfter200(answered200)}`,
			);

			expect(acceptedBefore).toHaveLength(STOP_AFTER_ANSWERS);
			const pick = <T>(values: T[], indexes: number[]) => indexes.map((index) => values[index]);
			expect(notOnce(pick(sent.ids, acceptedBefore), pick(runs, acceptedBefore))).toEqual([]);
			expect(pick(runs, answered200).filter((n) => n < 1)).toEqual([]);
		},
		STEP_TIMEOUT_MS,
	);
});

describe('drained first (docs/queue-mode.md): marked down in nginx, stopped once its last request is answered: nothing cut off', () => {
	let sent: Batch;
	let answers: TimedAnswer[];
	let target: 0 | 1;
	let drainAndStopMs = 0;

	beforeAll(async () => {
		// the process the previous steps stopped starts again, and nginx sends the path to it again
		const stopped = cluster().webhooks.findIndex((instance) => !instance.isRunning) as 0 | 1;
		await cluster().restartWebhook(stopped);
		await balancer().drain([]);
		// a webhook process answers 404 for a moment after it reports ready (n8n 2.8.4), and nginx
		// sends its paths elsewhere for fail_timeout (10 s) after a request it could not pass to it
		await eventually(
			'nginx gives the restarted webhook process its path back, and it runs the trigger',
			async () => {
				const [status] = (await postOverKeepAlive(balancedUrl(), freshBatch(1).deliveries, 1))
					.statuses;
				return { status, servedBy: servingProcess() };
			},
			(answer) => answer.status === 200 && answer.servedBy === stopped,
			{ timeoutMs: 60_000, intervalMs: 500 },
		);
		target = stopped;

		sent = freshBatch(100);
		const drained = await stopMidway(sent, async () => {
			await balancer().drain([cluster().webhooks[target].port]);
			await cluster().webhooks[target].stop();
		});
		answers = drained.answers;
		drainAndStopMs = drained.stoppedAt - drained.stopBeganAt;
	}, STEP_TIMEOUT_MS);

	test(
		'nothing is cut off: each delivery is answered 200, or its idle connection is closed by the reloading nginx before it is read; sent again, none is lost (how many ran twice is printed: copies of what the drained process answered while the other already took new ones)',
		async () => {
			const again = await postAsTheApiRetries(balancedUrl(), sent.deliveries, IN_FLIGHT);
			const runs = await runsOf(sent.ids);
			console.log(
				`failover with a drain (drained and stopped in ${drainAndStopMs.toFixed(0)} ms): ${answers.filter((answer) => answer.status === 200).length} of 100 answered 200, ` +
					`${answers.filter((answer) => answer.status === 0).length} connections closed by the reload; ` +
					`sent again: ${runs.filter((n) => n > 1).length} ran twice, ${runs.filter((n) => n < 1).length} did not run`,
			);

			// nothing cut off: no 500 or 502. nginx's old workers close idle keep-alive connections as
			// they end, so a request sent on one at that moment fails unread (status 0): the API retries it
			expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 0)).toEqual([]);
			expect(again.statuses).toEqual(Array(100).fill(200));
			expect(runs.filter((n) => n < 1)).toEqual([]);
			// both processes save the workflow's static data while the path moves: a copy of one the
			// drained process answered then can run again, never more
			expect(runs.filter((n) => n > 2)).toEqual([]);
		},
		STEP_TIMEOUT_MS,
	);
});
