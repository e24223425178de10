import type {
	ICredentialsDecrypted,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { authorizationHeader } from './authorization';
import type { WorkforceApiContext } from './context';

/**
 * How long one request may take, from sending it to the last byte of the answer. n8n's `timeout`
 * bounds only the silence between two bytes, so a server or proxy that trickles its answer could
 * hold a request for as long as it liked; and n8n activates workflows one after another at
 * start-up, so a Base URL that never answers would hold them all.
 */
export const REQUEST_DEADLINE_MS = 30_000;

/** How one request ended: an HTTP answer (any status), its deadline, or no answer at all. */
export type SendOutcome =
	| { kind: 'answered'; response: IN8nHttpFullResponse }
	| { kind: 'deadline' }
	| { kind: 'unanswered'; cause: string };

/** The execution's cancel signal, which the action node's context has and the others lack. */
function cancelSignalOf(context: WorkforceApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

/**
 * Sends `request` once with the credential's key, within `REQUEST_DEADLINE_MS`. It goes through
 * `httpRequest`: `httpRequestWithAuthentication` replaces a request's abort signal with the
 * execution's cancel signal in the action node (n8n-core 2.8 to 2.41), which would drop the
 * deadline. Cancelling the execution still aborts the request.
 */
export async function sendOnce(
	this: WorkforceApiContext,
	credentials: ICredentialsDecrypted,
	request: IHttpRequestOptions,
): Promise<SendOutcome> {
	const deadline = AbortSignal.timeout(REQUEST_DEADLINE_MS);
	const cancel = cancelSignalOf(this);
	try {
		const response = (await this.helpers.httpRequest({
			...request,
			headers: { ...request.headers, ...authorizationHeader(credentials.data?.apiKey) },
			abortSignal: cancel ? AbortSignal.any([deadline, cancel]) : deadline,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as IN8nHttpFullResponse;
		return { kind: 'answered', response };
	} catch (error) {
		// Only transport failures land here: every HTTP status is an answer.
		// n8n is stopping the execution: nothing to retry, nothing for the user to fix
		if (cancel?.aborted) throw new NodeApiError(this.getNode(), error as JsonObject);
		if (deadline.aborted) return { kind: 'deadline' };
		return { kind: 'unanswered', cause: (error as Error).message };
	}
}
