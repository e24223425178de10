import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'workforceManagementApi';

/**
 * The n8n contexts that call the API: the action node, its list searches, the trigger (its webhook
 * methods, `webhook()`, and the schedule its `trigger()` registers).
 */
export type WorkforceApiContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| ITriggerFunctions;

/** The node's credential, decrypted: a caller sending many requests reads it once. */
export async function decryptCredentials(
	this: WorkforceApiContext,
): Promise<ICredentialsDecrypted> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
}

/** The header that carries the API key on every request, as the API's authentication asks. */
export function authorizationHeader(apiKey: unknown): { Authorization: string } {
	return { Authorization: `Bearer ${String(apiKey)}` };
}
