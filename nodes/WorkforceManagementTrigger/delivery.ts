/**
 * The delivery pipeline: what happens to one request to the trigger's webhook URL. Refused
 * requests are answered here and start no execution; an accepted one becomes one item.
 *
 * content type → raw body → signature (signature.ts) → duplicates (acceptedEnvelopes.ts) →
 * test-delivery option → the envelope as the item
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

import { acceptEnvelope, carryMemoryInto, type MemoryOwner } from './duplicates/acceptedEnvelopes';
import { verifyDelivery } from './verification/deliveryVerification';
import { keepMarkedChangedPastRunnerStart } from './duplicates/n8nChangeFlagReset';
import { operatorLog } from './operatorLog';
import { toleranceSeconds, type TriggerOptions, triggerOptions } from './options';
import { type TriggerStaticData, triggerStaticData } from './staticData';
import { SIGNATURE_HEADER } from './verification/signature';

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
 * Whether n8n started the execution a request asked for, judged once the request is over: n8n
 * answers only after `WorkflowRunner.run` returned, and 500 when it threw. A client that went away
 * first (the API stops waiting long before a slow database answers) gives no such proof.
 */
function executionStarted(response: ReturnType<IWebhookFunctions['getResponseObject']>): boolean {
	return response.writableFinished && response.statusCode !== 500;
}

/**
 * Records the envelope id; false when it was accepted before. Once the request is over, an id
 * whose execution did not start is forgotten again, so the API's retry runs.
 */
function acceptOnce(
	this: IWebhookFunctions,
	staticData: TriggerStaticData,
	envelopeId: string,
	nowSeconds: number,
): boolean {
	const acceptance = acceptEnvelope(staticData, memoryOwner(this), envelopeId, nowSeconds);
	const response = this.getResponseObject();
	response.once('close', () => acceptance.settle(executionStarted(response)));
	if (acceptance.duplicate) return false;
	keepMarkedChangedPastRunnerStart(staticData);
	return true;
}

/**
 * A repair stored a new secret: n8n saves this request's static data, refused or not, so the
 * duplicate memory in it is kept current until the request is over.
 */
function carryMemory(this: IWebhookFunctions, staticData: TriggerStaticData, nowSeconds: number) {
	const release = carryMemoryInto(staticData, memoryOwner(this), nowSeconds);
	this.getResponseObject().once('close', release);
}

/** For whoever runs n8n: why a delivery was refused (a missing secret is reported elsewhere). */
function logRefusal(this: IWebhookFunctions, reason: string, options: TriggerOptions): void {
	const logContext = operatorLog(this).meta;
	if (reason === 'invalid_tolerance') {
		this.logger.error(
			`Refused a webhook delivery: "Signature Tolerance (Seconds)" is ${String(options.signatureToleranceSeconds)}, not a positive number of seconds`,
			logContext,
		);
	} else if (reason !== 'no_secret') {
		// verifyDelivery reports a missing secret itself, once a minute
		this.logger.warn(`Refused a webhook delivery: ${reason}`, logContext);
	}
}

/** The item a verified envelope becomes. */
function triggerItem(this: IWebhookFunctions, envelope: IDataObject, testDelivery: boolean) {
	return {
		id: envelope.id,
		type: envelope.type,
		created_at: envelope.created_at,
		// the envelope's `mode`: the API key's live or test mode, not an n8n test run
		api_key_mode: envelope.mode,
		// the API's "Send Test Event" (X-Webhook-Test): an example, not a real event
		sample_event: testDelivery,
		// where n8n ran it: the editor listening for a test event, or the published workflow
		received_in: this.getMode() === 'manual' ? 'editor' : 'published_workflow',
		data: envelope.data,
	};
}

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	if (!isJsonMediaType(request.headers['content-type'])) {
		return refuseDelivery.call(this, 415, 'unsupported_content_type');
	}
	const staticData = triggerStaticData(this);
	const options = triggerOptions(this);
	const nowSeconds = Math.floor(Date.now() / 1000);

	const rawBody = await rawBodyOf(request);
	const secretBefore = staticData.secret;
	const verdict = await verifyDelivery.call(this, staticData, {
		rawBody,
		header: request.headers[SIGNATURE_HEADER],
		nowSeconds,
		toleranceSeconds: toleranceSeconds(options),
	});
	if (staticData.secret !== secretBefore) carryMemory.call(this, staticData, nowSeconds);
	if (!verdict.valid) {
		logRefusal.call(this, verdict.reason, options);
		return refuseDelivery.call(this, 401, verdict.reason);
	}

	let envelope: IDataObject;
	try {
		envelope = jsonParse<IDataObject>(rawBody.toString('utf8'));
	} catch {
		return refuseDelivery.call(this, 400, 'body_not_json');
	}

	// a test delivery is remembered too, ignored or not: replayed without its (unsigned) test
	// header, it must not run as a real event
	if (options.ignoreDuplicates !== false && typeof envelope.id === 'string') {
		if (!acceptOnce.call(this, staticData, envelope.id, nowSeconds)) {
			return acknowledgeWithoutRun('duplicate');
		}
	}

	const testDelivery = String(request.headers[TEST_DELIVERY_HEADER]).toLowerCase() === 'true';
	if (testDelivery && options.ignoreTestDeliveries === true) {
		return acknowledgeWithoutRun('test_delivery');
	}

	return {
		workflowData: [this.helpers.returnJsonArray(triggerItem.call(this, envelope, testDelivery))],
	};
}

/**
 * The items `webhook()` made of a delivery, as the node's output (its `execute()`). Run without a
 * delivery (n8n ran the node on its own), there is nothing to output: an error, or with "Continue
 * On Fail" an item saying so.
 */
export function passDeliveryThrough(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): INodeExecutionData[] {
	const items = this.getInputData();
	if (items.length > 0) return items;
	const error = new NodeOperationError(
		this.getNode(),
		'This trigger has no event to output: it runs when Workforce Management delivers one',
		{
			description:
				'Publish the workflow, or click "Listen for test event" (Execute step) and send an event, for example with Send Test Event on the endpoint in Workforce Management.',
		},
	);
	if (continueOnFail) return [{ json: { error: error.message } }];
	throw error;
}
