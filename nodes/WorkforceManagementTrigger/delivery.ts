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
import { jsonParse } from 'n8n-workflow';

import { acceptEnvelopeOnce, type DuplicateMemoryStaticData } from './duplicates';
import type { StoredRegistration, TriggerOptions } from './registration';
import { deliverySecrets } from './secret';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, verifySignature } from './signature';

/*
 * What a request must be before its signature is even checked. The API sends every delivery as
 * `application/json`; anything else is refused with 415 before n8n's parsed body is touched, so a
 * multipart or form post (whose body n8n has already consumed) never reaches `readRawBody()`.
 */

/** `application/json`, with or without parameters (`; charset=utf-8`), in any letter case. */
export function isJsonMediaType(contentType: string | string[] | undefined): boolean {
	if (typeof contentType !== 'string') return false;
	return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * The signing secrets to verify with. Static data can be edited by hand or left half-written; a
 * stored value that is not a non-empty string counts as no secret, so verification fails closed
 * (401) instead of throwing (500).
 */
export function storedSecrets(secret: unknown): string[] {
	return typeof secret === 'string' && secret !== '' ? [secret] : [];
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

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	if (!isJsonMediaType(request.headers['content-type'])) {
		return refuseDelivery.call(this, 415, 'unsupported_content_type');
	}
	const staticData = triggerStaticData(this);
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const nowSeconds = Math.floor(Date.now() / 1000);

	// n8n keeps the bytes it parsed the JSON from; a body it could not read verifies as empty.
	if (!Buffer.isBuffer(request.rawBody)) {
		try {
			await request.readRawBody?.();
		} catch {
			// already consumed by a body parser: nothing left to verify, so it fails below
		}
	}
	const rawBody = Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.alloc(0);
	const verdict = verifySignature({
		rawBody,
		header: request.headers[SIGNATURE_HEADER],
		secrets: await deliverySecrets.call(this, staticData),
		nowSeconds,
		toleranceSeconds: options.signatureToleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
	});
	if (!verdict.valid) {
		this.logger.warn(`Refused a webhook delivery: ${verdict.reason}`, {
			workflowId: this.getWorkflow().id,
			node: this.getNode().name,
		});
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
		const owner = { workflowId: this.getWorkflow().id, nodeId: this.getNode().id };
		if (!acceptEnvelopeOnce(staticData, owner, envelope.id, nowSeconds)) {
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
				test_delivery: testDelivery,
			}),
		],
	};
}
