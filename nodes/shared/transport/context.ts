import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

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
