/**
 * Workflow definitions for a real n8n, built the way the editor saves them: nodes with their
 * parameters, positions and credentials, and the connections between them.
 */
import { randomUUID } from 'node:crypto';

import {
	ACTION_NODE_TYPE,
	ACTION_NODE_VERSION,
	ACTION_TOOL_NODE_TYPE,
	CREDENTIAL_TYPE,
	TRIGGER_NODE_TYPE,
} from './constants';
import type { WorkflowDefinition } from './n8n';

export interface CredentialReference {
	id: string;
	name: string;
}

export type WorkflowNode = Record<string, unknown> & { name: string };

const COLUMN_WIDTH = 220;

/** Places the nodes left to right and connects each one's main output to the next one's input. */
export function chainWorkflow(name: string, nodes: WorkflowNode[]): WorkflowDefinition {
	const positioned = nodes.map((node, index) => ({
		id: randomUUID(),
		position: [index * COLUMN_WIDTH, 0],
		...node,
	}));
	const connections: Record<string, unknown> = {};
	for (let index = 0; index < positioned.length - 1; index++) {
		connections[positioned[index].name] = {
			main: [[{ node: positioned[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { name, nodes: positioned, connections, settings: { executionOrder: 'v1' } };
}

/** n8n's Webhook node; the production URL is `<n8n>/webhook/<path>`. */
export function webhookNode(
	name: string,
	path: string,
	respondWith: 'firstEntryJson' | 'allEntries' | 'noData',
): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: respondWith,
			options: {},
		},
	};
}

/**
 * Our action node with the given resource, operation and operation fields; version 1 (Raw output
 * by default) unless `typeVersion` says otherwise.
 */
export function workforceNode(
	name: string,
	credential: CredentialReference,
	parameters: Record<string, unknown>,
	typeVersion: number = ACTION_NODE_VERSION.saved,
): WorkflowNode {
	return {
		name,
		type: ACTION_NODE_TYPE,
		typeVersion,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
}

/**
 * n8n's MCP Server Trigger at `<n8n>/mcp/<path>` (Streamable HTTP), serving every node in
 * `tools` (connected to it as AI tools) to MCP clients.
 */
export function mcpServerWorkflow(
	name: string,
	path: string,
	tools: WorkflowNode[],
): WorkflowDefinition {
	const trigger = {
		id: randomUUID(),
		name: 'MCP Server Trigger',
		type: '@n8n/n8n-nodes-langchain.mcpTrigger',
		typeVersion: 2,
		webhookId: randomUUID(),
		position: [0, 0],
		parameters: { path },
	};
	const connections: Record<string, unknown> = {};
	const positioned = tools.map((tool, index) => {
		connections[tool.name] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
		return { id: randomUUID(), position: [index * COLUMN_WIDTH, 200], ...tool };
	});
	return {
		name,
		nodes: [trigger, ...positioned],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** Our action node as an AI tool (its current version), its fields filled by the agent. */
export function workforceToolNode(
	name: string,
	credential: CredentialReference,
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		name,
		type: ACTION_TOOL_NODE_TYPE,
		typeVersion: 2,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
}

/**
 * Our trigger, subscribed to `events`, with `options` as its Options collection; its production URL
 * is `<n8n>/webhook/<webhookId>/webhook`.
 */
export function workforceTriggerNode(
	name: string,
	credential: CredentialReference,
	events: string[],
	options: Record<string, unknown> = {},
): WorkflowNode & { webhookId: string } {
	return {
		name,
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		webhookId: randomUUID(),
		parameters: { events, options },
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
}

/** A member id picked "By ID" in a resource locator, from an expression. */
export function memberIdFrom(expression: string): Record<string, unknown> {
	return { __rl: true, mode: 'id', value: `={{ ${expression} }}` };
}

export const memberParameters = {
	create(fields: {
		businessName: string;
		email?: string;
		phone?: string;
	}): Record<string, unknown> {
		return {
			resource: 'member',
			operation: 'create',
			businessName: fields.businessName,
			additionalFields: {
				...(fields.email !== undefined ? { email: fields.email } : {}),
				...(fields.phone !== undefined ? { phone: fields.phone } : {}),
			},
		};
	},
	getAll(): Record<string, unknown> {
		return { resource: 'member', operation: 'getAll', returnAll: true, filters: {} };
	},
	update(
		memberIdExpression: string,
		updateFields: Record<string, unknown>,
	): Record<string, unknown> {
		return {
			resource: 'member',
			operation: 'update',
			memberId: memberIdFrom(memberIdExpression),
			updateFields,
		};
	},
	get(memberIdExpression: string): Record<string, unknown> {
		return { resource: 'member', operation: 'get', memberId: memberIdFrom(memberIdExpression) };
	},
	verify(memberIdExpression: string): Record<string, unknown> {
		return { resource: 'member', operation: 'verify', memberId: memberIdFrom(memberIdExpression) };
	},
	deactivate(memberIdExpression: string): Record<string, unknown> {
		return {
			resource: 'member',
			operation: 'deactivate',
			memberId: memberIdFrom(memberIdExpression),
		};
	},
};

export const customerParameters = {
	get(customerIdExpression: string): Record<string, unknown> {
		return {
			resource: 'customer',
			operation: 'get',
			customerId: { __rl: true, mode: 'id', value: `={{ ${customerIdExpression} }}` },
		};
	},
};

/** The workflow with the named trigger listening to `events` instead: a change to republish. */
export function withTriggerEvents<W extends WorkflowDefinition>(
	workflow: W,
	triggerName: string,
	events: string[],
): W {
	const nodes = workflow.nodes.map((node) =>
		node.name === triggerName
			? { ...node, parameters: { ...(node.parameters as object), events } }
			: node,
	);
	return { ...workflow, nodes };
}
