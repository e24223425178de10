import type { IHookFunctions, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';

/** The contexts n8n runs the trigger's code in: its webhook methods, `webhook()` and `trigger()`. */
export type TriggerNodeContext = IHookFunctions | IWebhookFunctions | ITriggerFunctions;

/**
 * How the trigger's log lines for whoever runs n8n begin (which node of which workflow), and the
 * metadata they carry.
 */
export function operatorLog(context: TriggerNodeContext) {
	const workflow = context.getWorkflow();
	const node = context.getNode().name;
	return {
		where: `Workforce Management Trigger "${node}" in workflow "${workflow.name ?? ''}" (${workflow.id ?? ''})`,
		meta: { workflowId: workflow.id, node },
	};
}
