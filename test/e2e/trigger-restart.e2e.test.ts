/**
 * n8n (one process, regular mode) stopped in the middle of a stream of deliveries and started
 * again, as a deploy or an upgrade does: what it answered 200 before it stopped runs exactly once,
 * also when the API sends it again after the restart (its answer lost on the way).
 */
import { randomBytes } from 'node:crypto';

import {
	envelopeIds,
	postAndStopMidway,
	postOverKeepAlive,
	signedDelivery,
} from '../support/signed-delivery';
import { chainWorkflow, workforceTriggerNode } from '../support/workflows';
import { onceEach, runsPerEvent } from './event-runs';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();
const TRIGGER = 'On member updated';
const EVENT = 'member.updated';
const DELIVERIES = 100;
const IN_FLIGHT = 16;
const STOP_AFTER_ANSWERS = 40;

test(`stopped after ${STOP_AFTER_ANSWERS} of ${DELIVERIES} deliveries (${IN_FLIGHT} in flight) and started again: every one answered 200 runs exactly once, also when all are sent again`, async () => {
	const trigger = workforceTriggerNode(TRIGGER, world().credential, [EVENT]);
	const { id: workflowId } = await world().client.createWorkflow(
		chainWorkflow('Restart in the middle of a stream', [trigger]),
	);
	await world().client.activateWorkflow(workflowId);
	const [endpoint] = await world().control.endpoints();
	const ids = envelopeIds(DELIVERIES, randomBytes(6).toString('hex'));
	const deliveries = ids.map((id) =>
		signedDelivery(endpoint.secret!, id, EVENT, undefined, { contentLength: true }),
	);

	const { answers, stopBeganAt, stoppedAt } = await postAndStopMidway(
		endpoint.url,
		deliveries,
		IN_FLIGHT,
		STOP_AFTER_ANSWERS,
		() => world().stopN8n(),
	);
	await world().startN8n();
	const again = await postOverKeepAlive(endpoint.url, deliveries, IN_FLIGHT);
	expect(again.statuses).toEqual(Array(DELIVERIES).fill(200));

	const queued = (await world().client.listExecutions(workflowId)).length;
	const executions = await world().client.waitForExecutions(workflowId, queued, 180_000);
	const answered200 = ids.filter((_, index) => answers[index].status === 200);
	const runs = runsPerEvent(executions, TRIGGER, ids);
	const notOnce = runs.filter((entry) => !entry.endsWith(': 1'));
	console.log(
		`restart in the middle of ${DELIVERIES} deliveries (stopped in ${(stoppedAt - stopBeganAt).toFixed(0)} ms): ` +
			`${answered200.length} answered 200 before the restart; sent again after it, ` +
			`${notOnce.length} did not run exactly once${notOnce.length > 0 ? ` (${notOnce.join(', ')})` : ''}`,
	);
	expect(runsPerEvent(executions, TRIGGER, answered200)).toEqual(onceEach(answered200));
	// n8n answers the requests in flight before it stops; one it cut off would show here
	expect(notOnce).toEqual([]);
}, 400_000);
