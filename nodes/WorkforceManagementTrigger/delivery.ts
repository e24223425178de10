/**
 * The delivery pipeline: what happens to one request to the trigger's webhook URL. Refused
 * requests are answered here and start no execution; an accepted one becomes one item.
 *
 * content type → raw body → signature (signature.ts) → test-delivery option → duplicates
 * (duplicates.ts) → the envelope as the item
 */
import type {
	IDataObject,
	IHookFunctions,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { jsonParse, sleep } from 'n8n-workflow';

import { verifyDelivery } from './deliveryVerification';
import {
	acceptEnvelopeOnce,
	type DuplicateMemoryStaticData,
	type MemoryOwner,
	settleEnvelope,
} from './duplicates';
import type { StoredRegistration, TriggerOptions } from './registration';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER } from './signature';

/**
 * `application/json`, with or without parameters (`; charset=utf-8`), in any letter case. The API
 * sends every delivery so; anything else is refused with 415 before n8n's parsed body is touched,
 * so a multipart or form post (whose body n8n has already consumed) never reaches `readRawBody()`.
 */
export function isJsonMediaType(contentType: string | string[] | undefined): boolean {
	if (typeof contentType !== 'string') return false;
	return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

const TEST_DELIVERY_HEADER = 'x-webhook-test';

/** The node's static data: the registration plus the envelope ids recently accepted. */
export type TriggerStaticData = StoredRegistration & DuplicateMemoryStaticData;

export function triggerStaticData(context: IHookFunctions | IWebhookFunctions): TriggerStaticData {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

/** Answers a refused delivery directly, so n8n sends nothing else and starts no execution. */
function refuseDelivery(
	this: IWebhookFunctions,
	statusCode: number,
	reason: string,
): IWebhookResponseData {
	const response = this.getResponseObject();
	response.writeHead(statusCode, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify({ error: reason }));
	return { noWebhookResponse: true };
}

function acknowledgeWithoutRun(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, ignored: reason } };
}

/** The registration a request reached: production's, or a test listener's (n8n's mode `manual`). */
function memoryOwner(context: IWebhookFunctions): MemoryOwner {
	return {
		workflowId: context.getWorkflow().id,
		nodeId: context.getNode().id,
		testListener: context.getMode() === 'manual',
	};
}

/** Reads the bytes n8n parsed the JSON from; a body it could not read verifies as empty. */
async function rawBodyOf(request: ReturnType<IWebhookFunctions['getRequestObject']>) {
	if (!Buffer.isBuffer(request.rawBody)) {
		try {
			await request.readRawBody?.();
		} catch {
			// already consumed by a body parser: nothing left to verify, so it fails below
		}
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.alloc(0);
}

/**
 * Records the envelope id as accepted, then, once n8n has answered this request, forgets it again
 * if n8n could not start the execution (it answers 500 and saves no static data): the API retries,
 * and the retry must run.
 */
function acceptOnce(
	this: IWebhookFunctions,
	staticData: TriggerStaticData,
	envelopeId: string,
	nowSeconds: number,
): boolean {
	const owner = memoryOwner(this);
	if (!acceptEnvelopeOnce(staticData, owner, envelopeId, nowSeconds)) return false;
	keepMarkedChangedPastRunnerStart(staticData);
	const response = this.getResponseObject();
	response.once('close', () => {
		// n8n answers 500 when it could not start the execution (WorkflowRunner.run threw)
		const failed = response.headersSent && response.statusCode === 500;
		settleEnvelope(owner, envelopeId, !failed);
	});
	return true;
}

/**
 * n8n 2.36+ (measured on 2.41.1) forgets that `webhook()` changed static data: starting the
 * execution (`WorkflowRunner.run` → `establishContextForPersistence`) wraps the same static data
 * object in a second `Workflow`, whose `ObservableObject.create` resets `__dataChanged`, and the
 * webhook service then skips its save. Without the save a duplicate sent later (after a restart,
 * or to another webhook process) runs again. Writing the memory again once the reset has happened
 * marks it changed again. The reset comes a few promise turns after `webhook()` returns, before any
 * I/O; the save only after the execution is stored, so both re-marks land in between. Harmless
 * where n8n keeps the flag (2.8): the save happens either way.
 */
function keepMarkedChangedPastRunnerStart(staticData: TriggerStaticData): void {
	const markChanged = () => {
		const memory = staticData.seenEnvelopes;
		if (memory !== undefined) staticData.seenEnvelopes = memory;
	};
	void (async () => {
		for (let turn = 0; turn < RUNNER_START_PROMISE_TURNS; turn++) await Promise.resolve();
		markChanged();
		await sleep(0);
		markChanged();
	})();
}

/** More promise turns than n8n 2.41 takes from `webhook()` returning to the flag's reset. */
const RUNNER_START_PROMISE_TURNS = 64;

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	if (!isJsonMediaType(request.headers['content-type'])) {
		return refuseDelivery.call(this, 415, 'unsupported_content_type');
	}
	const staticData = triggerStaticData(this);
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const nowSeconds = Math.floor(Date.now() / 1000);
	const logContext = { workflowId: this.getWorkflow().id, node: this.getNode().name };

	const rawBody = await rawBodyOf(request);
	const verdict = await verifyDelivery.call(this, staticData, {
		rawBody,
		header: request.headers[SIGNATURE_HEADER],
		nowSeconds,
		toleranceSeconds: options.signatureToleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
	});
	if (!verdict.valid) {
		if (verdict.reason === 'invalid_tolerance') {
			this.logger.error(
				`Refused a webhook delivery: "Signature Tolerance (Seconds)" is ${String(options.signatureToleranceSeconds)}, not a positive number of seconds`,
				logContext,
			);
		} else if (verdict.reason !== 'no_secret') {
			// verifyDelivery reports a missing secret itself, once a minute
			this.logger.warn(`Refused a webhook delivery: ${verdict.reason}`, logContext);
		}
		return refuseDelivery.call(this, 401, verdict.reason);
	}

	let envelope: IDataObject;
	try {
		envelope = jsonParse<IDataObject>(rawBody.toString('utf8'));
	} catch {
		return refuseDelivery.call(this, 400, 'body_not_json');
	}

	const testDelivery = String(request.headers[TEST_DELIVERY_HEADER]).toLowerCase() === 'true';
	if (testDelivery && options.ignoreTestDeliveries === true) {
		return acknowledgeWithoutRun('test_delivery');
	}

	if (options.ignoreDuplicates !== false && typeof envelope.id === 'string') {
		if (!acceptOnce.call(this, staticData, envelope.id, nowSeconds)) {
			return acknowledgeWithoutRun('duplicate');
		}
	}

	return {
		workflowData: [
			this.helpers.returnJsonArray({
				id: envelope.id,
				type: envelope.type,
				created_at: envelope.created_at,
				mode: envelope.mode,
				data: envelope.data,
				// sent with the API's "Send Test Event" (X-Webhook-Test), whatever n8n URL received it
				test_delivery: testDelivery,
				// which of n8n's URLs received it: "Listen for test event" or the published workflow
				received_via: this.getMode() === 'manual' ? 'test_url' : 'production_url',
			}),
		],
	};
}
