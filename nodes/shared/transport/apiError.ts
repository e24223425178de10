import type { IHttpRequestMethods, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { RATE_LIMIT_MAX_ATTEMPTS, RATE_LIMIT_MAX_TOTAL_WAIT_MS } from './rateLimit';

interface ApiErrorBody {
	error?: {
		code?: string;
		message?: string;
		details?: Array<{ field?: string; message?: string }>;
	};
}

function moduleOfScope(scope: string | undefined): string | undefined {
	const resource = scope?.split(':')[0];
	return resource === 'members' || resource === 'customers' ? resource : undefined;
}

function describeValidationDetails(body: ApiErrorBody): string | undefined {
	const details = body.error?.details ?? [];
	const described = details
		.filter((detail) => detail.field || detail.message)
		.map((detail) =>
			detail.field ? `${detail.field}: ${detail.message ?? 'invalid'}` : detail.message,
		);
	return described.length > 0 ? described.join('; ') : undefined;
}

/** Turns a failed response into an error that tells a no-code user what to fix. */
export function apiError(
	node: INode,
	method: IHttpRequestMethods,
	path: string,
	response: IN8nHttpFullResponse,
	operationScope: string | undefined,
): NodeApiError {
	const body = (
		typeof response.body === 'object' && response.body !== null ? response.body : {}
	) as ApiErrorBody;
	const apiMessage = body.error?.message;
	const apiSays = apiMessage ? ` The API says: "${apiMessage}"` : '';
	const status = response.statusCode;
	let message: string;
	let description: string;

	if (status === 401) {
		message = 'The Workforce Management API rejected the API key';
		description = `Check the API key and the Base URL in the credential: the key must be complete, not revoked, and belong to the instance at that URL.${apiSays}`;
	} else if (status === 403 && body.error?.code === 'module_inactive') {
		const module = moduleOfScope(operationScope);
		message = module
			? `The ${module} module is not active for this organization`
			: 'A module this operation needs is not active for this organization';
		description = `An administrator of the organization must activate the module before this operation can be used.${apiSays}`;
	} else if (status === 403) {
		message = operationScope
			? `The API key lacks the scope "${operationScope}" this operation needs`
			: 'The API key is not allowed to perform this operation';
		description = `Create a key with ${operationScope ? `the "${operationScope}"` : 'the needed'} scope in the developer area and use it in the credential.${apiSays}`;
	} else if (status === 404) {
		message = `The requested record does not exist in this organization (${method} ${path})`;
		description = `Check the ID. A record of another organization, or one created with a key of the other mode (live or test), is not visible to this key.${apiSays}`;
	} else if (status === 400 || status === 422) {
		const details = describeValidationDetails(body);
		message = `The API refused the request: ${details ?? apiMessage ?? 'invalid input'}`;
		description = `Correct the field named above and run the node again.${apiSays}`;
	} else if (status === 429) {
		message = 'The Workforce Management API is still rate limiting this key';
		description = `The node retried ${RATE_LIMIT_MAX_ATTEMPTS} times or for up to ${RATE_LIMIT_MAX_TOTAL_WAIT_MS / 1000} seconds as the API asked. Run fewer requests at once, or retry later.${apiSays}`;
	} else if (status < 500) {
		message = `The API refused the request with status ${status}: ${apiMessage ?? 'no reason given'}`;
		description = `Correct what the API names and run the node again (${method} ${path}).`;
	} else {
		message = `The Workforce Management API failed with status ${status} (${method} ${path})`;
		description = `Retry later; if it persists, contact the provider.${apiSays}`;
	}

	return new NodeApiError(node, body as JsonObject, {
		message,
		description,
		httpCode: String(status),
	});
}
