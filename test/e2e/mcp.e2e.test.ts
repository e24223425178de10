/**
 * The action node as AI tools in a real n8n 2.8.4: its tool variant connected to n8n's MCP Server
 * Trigger, called by the official MCP client as an agent would call it (no model involved).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { mcpServerWorkflow, workforceToolNode } from '../../harness/workflows';
import { useE2eWorld } from './use-world';

const world = useE2eWorld();

const MCP_PATH = 'workforce-tools';
const CREATE_TOOL = 'Create a member in Workforce Management';
const GET_TOOL = 'Get a member in Workforce Management';

interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

let client: Client;

function toolName(nodeName: string): string {
	return nodeName.replace(/\s/g, '_');
}

function text(result: ToolResult): string {
	return result.content.map((part) => part.text ?? '').join('\n');
}

async function call(nodeName: string, args: Record<string, unknown>): Promise<ToolResult> {
	return (await client.callTool({ name: toolName(nodeName), arguments: args })) as ToolResult;
}

beforeAll(async () => {
	const credential = world().credential;
	const workflow = await world().client.createWorkflow(
		mcpServerWorkflow('Workforce Management over MCP', MCP_PATH, [
			workforceToolNode(CREATE_TOOL, credential, {
				resource: 'member',
				operation: 'create',
				businessName:
					"={{ $fromAI('business_name', 'Business or working name of the member', 'string') }}",
				additionalFields: {
					email: "={{ $fromAI('email', 'Contact email of the member', 'string') }}",
				},
			}),
			workforceToolNode(GET_TOOL, credential, {
				resource: 'member',
				operation: 'get',
				memberId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('member_id', 'ID of the member (a UUID)', 'string') }}",
				},
			}),
		]),
	);
	await world().client.activateWorkflow(workflow.id);

	client = new Client({ name: 'workforce-e2e', version: '1.0.0' });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${world().n8n.url}/mcp/${MCP_PATH}`)),
	);
}, 60_000);

// jest runs this after the world's afterAll (declared first) has stopped n8n, which took the
// workflow with it: only the client's transport is left to close, without a request.
afterAll(async () => {
	await client?.close();
});

beforeEach(async () => {
	await world().control.reset();
});

test('lists the tools with what they do and the inputs the agent fills', async () => {
	const { tools } = await client.listTools();

	const byName = new Map(tools.map((tool) => [tool.name, tool]));
	expect([...byName.keys()].sort()).toEqual([toolName(CREATE_TOOL), toolName(GET_TOOL)].sort());
	const create = byName.get(toolName(CREATE_TOOL));
	// n8n builds it from the operation's action text and the node's name
	expect(create?.description).toBe('Create a member in Workforce Management');
	expect(create?.inputSchema.properties).toMatchObject({
		business_name: { type: 'string', description: 'Business or working name of the member' },
		email: { type: 'string', description: 'Contact email of the member' },
	});
	const get = byName.get(toolName(GET_TOOL));
	expect(get?.description).toBe('Get a member in Workforce Management');
	expect(get?.inputSchema.properties).toMatchObject({
		member_id: { type: 'string', description: 'ID of the member (a UUID)' },
	});
});

test('a create call makes the member; a get call answers with the Simplified member', async () => {
	const created = await call(CREATE_TOOL, {
		business_name: 'Ada Care',
		email: 'ada@example.com',
	});
	expect(created.isError).toBeFalsy();

	const { data } = await world().control.api<{ data: Array<Record<string, unknown>> }>(
		world().apiKey,
		'GET',
		'/members',
	);
	expect(data).toEqual([
		expect.objectContaining({
			business_name: 'Ada Care',
			status: 'draft',
			contact: { email: 'ada@example.com', phone: null },
		}),
	]);

	const read = await call(GET_TOOL, { member_id: data[0].id });
	expect(read.isError).toBeFalsy();
	expect(JSON.parse(text(read))).toEqual([
		{
			id: data[0].id,
			business_name: 'Ada Care',
			display_name: null,
			status: 'draft',
			is_verified: false,
			capacity: data[0].capacity,
			email: 'ada@example.com',
			phone: null,
			address: null,
		},
	]);
});

test('bad input comes back as an error result, and no request reaches the API', async () => {
	await world().control.clearRequests();

	const result = await call(GET_TOOL, { member_id: 'the member Ada' });

	expect(result.isError).toBe(true);
	expect(text(result)).toContain('The "Member" field must be a UUID, but is "the member Ada"');
	expect(await world().control.requests()).toEqual([]);
});

test('an email the agent got wrong comes back as an error result, and no member is created', async () => {
	await world().control.clearRequests();

	const result = await call(CREATE_TOOL, { business_name: 'Bad Mail Care', email: 'not-an-email' });

	expect(result.isError).toBe(true);
	expect(text(result)).toContain(
		'The "Email" field must be an email address like name@example.com, but is "not-an-email"',
	);
	expect(await world().control.requests()).toEqual([]);
});

test('an email the agent leaves empty is not sent: the member is created without one', async () => {
	await world().control.clearRequests();

	const result = await call(CREATE_TOOL, { business_name: 'No Mail Care', email: '' });

	expect(result.isError).toBeFalsy();
	const [request] = await world().control.requests();
	expect(request.body).toEqual({ business_name: 'No Mail Care' });
	const { data } = await world().control.api<{ data: Array<Record<string, unknown>> }>(
		world().apiKey,
		'GET',
		'/members',
	);
	expect(data).toEqual([
		expect.objectContaining({
			business_name: 'No Mail Care',
			contact: { email: null, phone: null },
		}),
	]);
});
