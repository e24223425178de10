import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * How the trigger's log lines for whoever runs n8n begin (which node of which workflow), and the
 * metadata they carry.
 */
export function operatorLog(context: IHookFunctions | IWebhookFunctions) {
	const workflow = context.getWorkflow();
	const node = context.getNode().name;
	return {
		where: `Workforce Management Trigger "${node}" in workflow "${workflow.name ?? ''}" (${workflow.id ?? ''})`,
		meta: { workflowId: workflow.id, node },
	};
}
