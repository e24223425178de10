/**
 * An API key rotation in n8n's queue mode with no balancer: two webhook processes both serve the
 * trigger's URL, both find the sealed secret unusable once the credential holds the new key, and
 * each repairs it by itself while their saves of static data overwrite each other (no lock). The
 * stored secret must converge on one the API signs with, and no event may be lost or run twice.
 *
 * How both processes get real deliveries: the endpoint is registered with webhook-1's URL
 * (WEBHOOK_URL), so the API delivers every attempt there; once the API has answered for an
 * event, the same envelope bytes go to webhook-2 too, signed as the API signs a delivery at that
 * moment (its current secret and the replaced ones still signing, at the sandbox's clock). Forged
 * requests go straight at both processes while the first real events arrive.
 *
 * The order the saves land in: a forged request makes webhook-2 roll first, and the sandbox holds
 * its answer to that roll (a `late_answer` fault with `hold`; the roll itself is done at once).
 * Meanwhile webhook-1 rolls and saves, and webhook-2 accepts the copies of the events the API
 * delivered to webhook-1 during the rotation (refused there; the API retries them an hour later).
 * Only then is the held answer released, so webhook-2's earlier roll is saved last, whatever the
 * machine's load: the row holds a secret the API signs with for 24 hours only, which webhook-1 must
 * replace with its own, and the copies' retries must be recognised. (A fixed delay of 15 s was not
 * enough at load 14: webhook-1 rolled 7 s after webhook-2, and the copies' saves came last.) The
 * trigger waits 30 s for an answer (REQUEST_DEADLINE_MS): the release comes well before.

 * Clocks: the signatures carry the sandbox's clock, which this file moves 25 hours ahead, while
 * n8n checks them against its real clock: the trigger's Signature Tolerance is set to two days
 * here for that reason alone (the default is five minutes). The trigger looks at the endpoint at
 * most once a real minute per process, so each simulated hour takes at least five real seconds
 * until the stored secret is the one the API signs with: the day still leaves every process two
 * looks before the replaced secrets stop signing after 24 hours (a real day leaves it 1,440).
 *
 * No delivery reaches a webhook process before the rotation: a process that has opened the sealed
 * secret keeps it opened in memory and goes on verifying with it after the rotation, with no
 * repair (and the row stays sealed with the old key). The repair is what a process that has not
 * opened it does: one started, restarted or scaled out after the rotation.
 *
 * The steps build on each other, in order, on one cluster.
 */
import { randomBytes } from 'node:crypto';

import { timesheetApprovedWorkflow } from '../../demo/workflows';
import { CREDENTIAL_TYPE } from '../../harness/constants';
import { nodeOutput } from '../../harness/n8n';
import { eventually } from '../../harness/poll';
import type {
	EventEnvelope,
	WebhookDelivery,
	WebhookEndpoint,
} from '../../harness/sandbox-control';
import { openNodeSecret } from '../support/sealed-secret';
import { envelopeHash } from '../../nodes/WorkforceManagementTrigger/duplicates/envelopeMemory';
import { decodeMemory } from '../../nodes/WorkforceManagementTrigger/duplicates/storedMemory';
import {
	envelopeIds,
	postAllAtOnce,
	postAsTheApi,
	postOverKeepAlive,
	signedDelivery,
} from '../../harness/signed-delivery';
import { useE2eWorld } from './use-world';

const world = useE2eWorld({ queue: true });
const cluster = () => world().queue!;

const TRIGGER = 'On timesheet approved';
const EVENT = 'timesheet.approved';
const TOLERANCE_SECONDS = 2 * 24 * 3600;
const FORGED_PER_PROCESS = 50;
const EVENTS_WITH_THE_FORGERIES = 4;
const HOURS = 25;
const HOUR_SECONDS = 3600;
const MIN_REAL_MS_PER_HOUR = 5_000;
/** The API's retry delays (the sandbox's defaults), for the retries still due after the day. */
const RETRY_DELAYS_SECONDS = [60, 300, 1800, 3600, 7200, 21600, 43200];
const STEP_TIMEOUT_MS = 300_000;

let workflowId: string;
let webhookId: string;
let endpointId: string;
let rotatedKey: string;
/** Every event the API emitted, in order. */
const emitted: string[] = [];
const forgedIds = new Set<string>();
/** Executions by the event id their trigger output, once everything has settled. */
const runs: Record<string, number> = {};
/** The events emitted while the forged requests came in. */
const withTheForgeries: EventEnvelope[] = [];
/** webhook-2's answers to the copies, by status. */
const copyAnswers: Record<number, number> = {};

const urls = () => cluster().webhooks.map((instance) => instance.webhookUrl(webhookId, 'webhook'));

async function endpoint(): Promise<WebhookEndpoint> {
	const endpoints = await world().control.endpoints();
	const found = endpoints.find((candidate) => candidate.id === endpointId);
	if (!found) throw new Error(`Endpoint ${endpointId} is gone: ${JSON.stringify(endpoints)}`);
	return found;
}

/** Emits one event; the API delivers it (to webhook-1) with any retries due. */
async function emit(): Promise<EventEnvelope> {
	const { event } = await world().control.emitEvent(EVENT);
	emitted.push(event.id);
	return event;
}

/** The envelopes again, to webhook-2, signed as the API would sign them now. */
async function copyToWebhook2(events: EventEnvelope[]): Promise<void> {
	const current = await endpoint();
	const nowMs = await world().control.now();
	const statuses = await Promise.all(
		events.map((event) => postAsTheApi(urls()[1], current, event, nowMs)),
	);
	for (const status of statuses) copyAnswers[status] = (copyAnswers[status] ?? 0) + 1;
}

async function sleep(ms: number): Promise<void> {
	await new Promise((wake) => setTimeout(wake, ms));
}

/** Lets the API's retries fall due, a real minute apart, until none is waiting (or all are used). */
async function retriesSettled(): Promise<WebhookDelivery[]> {
	let deliveries = await world().control.settleDeliveries();
	for (const delay of RETRY_DELAYS_SECONDS) {
		if (!deliveries.some((delivery) => delivery.status === 'failed')) break;
		// as the API's own first retry would: the trigger looks at the endpoint once a real minute
		await sleep(61_000);
		await world().control.advanceClock(delay);
		deliveries = await world().control.settleDeliveries();
	}
	return deliveries;
}

/** The trigger node's static data, as the public API shows it. */
async function triggerStaticData(): Promise<Record<string, unknown>> {
	const { staticData } = await world().client.getWorkflow(workflowId);
	return ((staticData as Record<string, unknown> | null)?.[`node:${TRIGGER}`] ?? {}) as Record<
		string,
		unknown
	>;
}

/** The trigger's stored secret, opened with the rotated key as a holder of the credential can. */
async function storedSecret(): Promise<string | undefined> {
	return openNodeSecret(await triggerStaticData(), rotatedKey);
}

/** The API's secret rolls of the trigger's endpoint since the rotation (its request log). */
async function rolls(): Promise<string[]> {
	const requests = await world().control.requests();
	return requests
		.filter(({ method, path }) => method === 'POST' && path.endsWith(`/${endpointId}/roll-secret`))
		.map(({ at }) => at);
}

function linesOf(log: string, text: string): string[] {
	return log.split('\n').filter((line) => line.includes(text));
}

/** The trigger's log lines for refused deliveries, counted by reason. */
function refusalsByReason(log: string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const line of linesOf(log, 'Refused a webhook delivery: ')) {
		const reason = /Refused a webhook delivery: (\w+)/.exec(line)![1];
		counts[reason] = (counts[reason] ?? 0) + 1;
	}
	return counts;
}

beforeAll(async () => {
	await world().control.reset();
	const workflow = timesheetApprovedWorkflow(world().credential);
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
	trigger.parameters = {
		...(trigger.parameters as object),
		options: { signatureToleranceSeconds: TOLERANCE_SECONDS },
	};
	webhookId = workflow.triggerWebhookId;
	workflowId = (await world().client.createWorkflow(workflow)).id;
	await world().client.activateWorkflow(workflowId);
	const endpoints = await world().control.endpoints();
	expect(endpoints.map((registered) => registered.url)).toEqual([urls()[0]]);
	endpointId = endpoints[0].id;
});

test(
	'the key rotated and the credential updated: forged requests at both processes while real events arrive are all refused',
	async () => {
		rotatedKey = await world().control.rotateKey(world().apiKey);
		await world().client.updateCredential(world().credential.id, {
			name: world().credential.name,
			type: CREDENTIAL_TYPE,
			data: { apiKey: rotatedKey, baseUrl: world().sandbox.baseUrl },
		});
		await world().control.clearRequests();
		// webhook-2 rolls first, on a forged request, and its roll's answer is held: webhook-1 rolls
		// meanwhile and saves first, and webhook-2's earlier roll is saved last (the worse order)
		await world().control.holdAnswers(`/webhook-endpoints/${endpointId}/roll-secret`);
		const [openingId] = envelopeIds(1, randomBytes(4).toString('hex'));
		forgedIds.add(openingId);
		const opening = postAllAtOnce(urls()[1], [
			signedDelivery('whsec_forged', openingId, EVENT, undefined, { contentLength: true }),
		]);
		await eventually('webhook-2 rolling', rolls, (rolled) => rolled.length === 1);

		const forged = urls().map((url) => {
			const ids = envelopeIds(FORGED_PER_PROCESS, randomBytes(4).toString('hex'));
			for (const id of ids) forgedIds.add(id);
			const deliveries = ids.map((id) =>
				signedDelivery('whsec_forged', id, EVENT, undefined, { contentLength: true }),
			);
			return postOverKeepAlive(url, deliveries, 4);
		});
		const real = (async () => {
			for (let index = 0; index < EVENTS_WITH_THE_FORGERIES; index++) {
				withTheForgeries.push(await emit());
			}
			await world().control.settleDeliveries();
			// the copies once webhook-1's roll is saved, while webhook-2's is still unanswered
			await eventually(
				'webhook-1 rolled and saved',
				async () => ({ stored: await storedSecret(), current: (await endpoint()).secret }),
				({ stored, current }) => stored !== undefined && stored === current,
			);
			await copyToWebhook2(withTheForgeries);
			expect(await world().control.releaseAnswers()).toBe(1);
		})();
		const [first, second] = await Promise.all([...forged, real]);

		expect(first!.statuses).toEqual(Array(FORGED_PER_PROCESS).fill(401));
		expect(second!.statuses).toEqual(Array(FORGED_PER_PROCESS).fill(401));
		expect(await opening).toEqual([401]);
		// each process rolled once; the row keeps the earlier roll's secret, which signs for 24 hours
		const stale = await eventually(
			"the earlier roll's secret stored",
			async () => ({ stored: await storedSecret(), endpoint: await endpoint() }),
			({ stored, endpoint: current }) =>
				stored !== undefined &&
				stored !== current.secret &&
				(current.previous_secrets ?? []).some((previous) => previous.secret === stored),
			{
				describe: ({ endpoint: current }) =>
					`previous secrets: ${current.previous_secrets?.length}`,
			},
		);
		expect(stale.stored).toBeDefined();
		expect(await rolls()).toHaveLength(2);
		const remembered = decodeMemory((await triggerStaticData()).seenEnvelopes);
		console.log(
			`after the rotation: webhook-2 answered the copies ${JSON.stringify(copyAnswers)}; the row remembers ${
				withTheForgeries.filter((event) => remembered.has(envelopeHash(event.id))).length
			} of the ${withTheForgeries.length} events as accepted`,
		);
	},
	STEP_TIMEOUT_MS,
);

test(
	'25 hours of hourly events: every event delivered, and the stored secret is the one the API signs with, stored again by the process that rolled it',
	async () => {
		const rotatedAt = Date.now();
		let converged: string | undefined;
		for (let hour = 1; hour <= HOURS; hour++) {
			const startedAt = Date.now();
			await world().control.advanceClock(HOUR_SECONDS);
			const event = await emit();
			await world().control.settleDeliveries();
			await copyToWebhook2([event]);
			if (!converged && (await storedSecret()) === (await endpoint()).secret) {
				converged = `hour ${hour}, ${Math.round((Date.now() - rotatedAt) / 1000)} s into the day`;
			}
			// the processes' looks at the endpoint need real minutes only until the stored secret is current
			if (!converged) await sleep(MIN_REAL_MS_PER_HOUR - (Date.now() - startedAt));
		}
		const deliveries = await retriesSettled();

		const executions = await world().client.settledExecutions(workflowId);
		for (const execution of executions) {
			const id = String(nodeOutput(execution, TRIGGER).id);
			runs[id] = (runs[id] ?? 0) + 1;
		}
		const current = await endpoint();
		const stored = await storedSecret();
		const rolled = await rolls();
		const apiDeliveries = deliveries.filter((delivery) => delivery.endpoint_id === endpointId);
		const logs = cluster().webhooks.map((instance, index) => ({
			process: `webhook-${index + 1}`,
			repair: linesOf(instance.log, 'webhook signing secret'),
			refused: refusalsByReason(instance.log),
			lines: instance.log.split('\n').length,
			noSecret: linesOf(instance.log, 'Refused webhook deliveries').length,
		}));
		console.log(
			JSON.stringify(
				{
					emitted: emitted.length,
					runsPerEvent: Object.entries(
						emitted.reduce<Record<number, number>>((counts, id) => {
							counts[runs[id] ?? 0] = (counts[runs[id] ?? 0] ?? 0) + 1;
							return counts;
						}, {}),
					).map(([count, events]) => `${events} event(s) ran ${count} time(s)`),
					executions: executions.length,
					rolls: rolled,
					endpointReads: (await world().control.requests()).filter(
						({ method, path }) =>
							method === 'GET' && path.endsWith(`/webhook-endpoints/${endpointId}`),
					).length,
					apiAttempts: apiDeliveries.reduce((sum, delivery) => sum + delivery.attempts, 0),
					apiRefusedAttempts: apiDeliveries.reduce(
						(sum, delivery) => sum + delivery.attempts - (delivery.status === 'delivered' ? 1 : 0),
						0,
					),
					apiRetried: apiDeliveries
						.filter((delivery) => delivery.attempts > 1)
						.map(
							(delivery) =>
								`${delivery.event_id}: ${delivery.attempts} attempts, ${delivery.status}`,
						),
					copyAnswersOnWebhook2: copyAnswers,
					currentStoredFrom: converged,
					storedIsCurrent: stored === current.secret,
					storedIsPrevious: (current.previous_secrets ?? []).some(
						(previous) => previous.secret === stored,
					),
					previousSecrets: (current.previous_secrets ?? []).length,
					logs,
				},
				null,
				2,
			),
		);

		expect(
			apiDeliveries
				.filter((delivery) => delivery.status !== 'delivered')
				.map(
					(delivery) => `${delivery.event_id}: ${delivery.status} ${delivery.last_response_status}`,
				),
		).toEqual([]);
		expect(apiDeliveries.map((delivery) => delivery.event_id).sort()).toEqual([...emitted].sort());
		expect(stored).toBe(current.secret);
		// converged by storing the last roll again, not by rolling on
		expect(rolled).toHaveLength(2);
		const adopted = logs.flatMap(({ repair }) =>
			repair.filter((line) => line.includes('stored the secret this process rolled')),
		);
		expect(adopted).not.toEqual([]);
	},
	STEP_TIMEOUT_MS + 1_500_000,
);

test('every emitted event ran exactly once, and no forged request ran', () => {
	expect(emitted.filter((id) => runs[id] !== 1).map((id) => `${id}: ${runs[id] ?? 0}`)).toEqual([]);
	expect(Object.keys(runs).filter((id) => forgedIds.has(id))).toEqual([]);
	expect(Object.values(runs).reduce((sum, count) => sum + count, 0)).toBe(emitted.length);
});
