/**
 * The action node and the credential in a real n8n 2.8.4 with the package installed from its
 * tarball, against the sandbox; and the events its operations cause, received by the trigger.
 */
import { SIGNUP_PAGES, signupFormWorkflow, submitSignupForm } from '../../demo/workflows';
import { CREDENTIAL_TYPE, NO_SCOPE_KEY } from '../../harness/constants';
import { endpointsRemoved } from '../support/endpoint-removal';
import { nodeOutput } from '../../harness/n8n';
import {
	chainWorkflow,
	memberParameters,
	webhookNode,
	workforceNode,
	workforceTriggerNode,
} from '../../harness/workflows';
import { useE2eWorld } from './use-world';

interface Member {
	id: string;
	business_name: string;
	status: string;
	contact: { email: string | null; phone: string | null };
}

const world = useE2eWorld();

beforeEach(async () => {
	await world().control.reset();
});

async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function membersInSandbox(): Promise<Member[]> {
	const { data } = await world().control.api<{ data: Member[] }>(
		world().apiKey,
		'GET',
		'/members?limit=100',
	);
	return data;
}

describe('credential dialog test', () => {
	const testWith = async (data: { apiKey: string; baseUrl: string }) =>
		await world().client.testCredential({
			id: world().credential.id,
			name: world().credential.name,
			type: CREDENTIAL_TYPE,
			data,
		});

	test('passes with a sandbox key', async () => {
		const result = await testWith({ apiKey: world().apiKey, baseUrl: world().sandbox.baseUrl });
		expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
	});

	// n8n 2.8.4 shows the message of a node's credential test function word for word
	test('fails with the package’s message when the key is wrong', async () => {
		const result = await testWith({
			apiKey: 'wfm_live_acme_wrong',
			baseUrl: world().sandbox.baseUrl,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The Workforce Management API at 127\.0\.0\.1:\d+ rejected this API key\. Copy the key again/,
		);
	});

	test('names the host when the base URL points at nothing', async () => {
		const result = await testWith({ apiKey: world().apiKey, baseUrl: 'http://127.0.0.1:9/api/v1' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Could not reach 127\.0\.0\.1:9: nothing accepts connections there \(connection refused\)/,
		);
	});

	test('says the base URL is not the API, and the path it should end in', async () => {
		const result = await testWith({
			apiKey: world().apiKey,
			baseUrl: `${world().sandbox.origin}/not-the-api`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/answers, but not as the Workforce Management API: .* gave status 404\. .*ending in \/api\/v1/,
		);
	});

	test('names the scopes a key lacks', async () => {
		const result = await testWith({ apiKey: NO_SCOPE_KEY, baseUrl: world().sandbox.baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The API key lacks the scopes "organization:read", "members:read", "customers:read", "webhooks:read" the node's operations need\./,
		);
	});
});

describe('form submission → create member', () => {
	test('a Webhook-started workflow creates the member and responds with it', async () => {
		const workflow = await world().client.createWorkflow(
			chainWorkflow('Sign-up webhook → create member', [
				webhookNode('Sign-up', 'e2e-signup', 'firstEntryJson'),
				workforceNode(
					'Create Member',
					world().credential,
					memberParameters.create({
						businessName: '={{ $json.body.name }}',
						email: '={{ $json.body.email }}',
						phone: '={{ $json.body.phone }}',
					}),
				),
			]),
		);
		await world().client.activateWorkflow(workflow.id);

		const submitted = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000' };
		const response = await postJson(`${world().n8n.url}/webhook/e2e-signup`, submitted);

		expect(response.status).toBe(200);
		const member = response.body as Member;
		expect(member).toEqual(
			expect.objectContaining({
				business_name: submitted.name,
				status: 'draft',
				contact: { email: submitted.email, phone: submitted.phone },
			}),
		);
		expect(await membersInSandbox()).toEqual([
			expect.objectContaining({
				id: member.id,
				business_name: submitted.name,
				contact: member.contact,
			}),
		]);
		await world().client.deactivateWorkflow(workflow.id);
	});

	test("the demo's n8n Form creates a member from the submitted fields and says so", async () => {
		const workflow = await world().client.createWorkflow(signupFormWorkflow(world().credential));
		await world().client.activateWorkflow(workflow.id);
		const page = await submitSignupForm(world().n8n.url, {
			name: 'Grace Hopper',
			email: 'grace@example.com',
			phone: '+1 555 0199',
		});

		expect(page).toContain(`${SIGNUP_PAGES.created.title} ${SIGNUP_PAGES.created.message}`);
		expect(await membersInSandbox()).toEqual([
			expect.objectContaining({
				business_name: 'Grace Hopper',
				contact: { email: 'grace@example.com', phone: '+1 555 0199' },
			}),
		]);
		await world().client.deactivateWorkflow(workflow.id);
	});

	test('a submission whose phone is not a phone number gets a page naming the field, and sends nothing', async () => {
		const workflow = await world().client.createWorkflow(signupFormWorkflow(world().credential));
		await world().client.activateWorkflow(workflow.id);
		await world().control.clearRequests();
		const page = await submitSignupForm(world().n8n.url, {
			name: 'Grace Hopper',
			email: 'grace@example.com',
			phone: 'call me maybe',
		});

		expect(page).toContain(SIGNUP_PAGES.refused.title);
		expect(page).toContain('The "Phone" field must be a phone number like +1 555 0100');
		expect(page).not.toContain(SIGNUP_PAGES.created.title);
		expect(await world().control.requests()).toEqual([]);
		await world().client.deactivateWorkflow(workflow.id);
	});
});

describe('Get Many', () => {
	test('Return All yields all 250 members in 3 requests', async () => {
		await world().control.seedMembers(250);
		const workflow = await world().client.createWorkflow(
			chainWorkflow('List members', [
				webhookNode('Start', 'e2e-list-members', 'allEntries'),
				workforceNode('Get Many Members', world().credential, memberParameters.getAll()),
			]),
		);
		await world().client.activateWorkflow(workflow.id);
		await world().control.clearRequests();

		const response = await postJson(`${world().n8n.url}/webhook/e2e-list-members`, {});

		expect(response.status).toBe(200);
		const members = response.body as Member[];
		expect(members).toHaveLength(250);
		expect(new Set(members.map((member) => member.id)).size).toBe(250);
		const requests = await world().control.requests();
		expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /api/v1/members',
			'GET /api/v1/members',
			'GET /api/v1/members',
		]);
		await world().client.deactivateWorkflow(workflow.id);
	});
});

describe('member events caused by the action node', () => {
	const TRIGGER = 'On member events';
	const MEMBER_EVENTS = [
		'member.created',
		'member.updated',
		'member.verified',
		'member.deactivated',
	];

	test('create, update, verify and deactivate reach the trigger as four events, in order', async () => {
		await world().control.reset();
		const listener = await world().client.createWorkflow(
			chainWorkflow('Member events', [
				workforceTriggerNode(TRIGGER, world().credential, MEMBER_EVENTS),
			]),
		);
		await world().client.activateWorkflow(listener.id);
		const memberId = "$('Create member').item.json.id";
		const lifecycle = await world().client.createWorkflow(
			chainWorkflow('Member lifecycle', [
				webhookNode('Start', 'e2e-member-lifecycle', 'firstEntryJson'),
				workforceNode(
					'Create member',
					world().credential,
					memberParameters.create({ businessName: 'Lifecycle Ltd' }),
				),
				workforceNode(
					'Update member',
					world().credential,
					memberParameters.update(memberId, { display_name: 'Lifecycle' }),
				),
				workforceNode('Verify member', world().credential, memberParameters.verify(memberId)),
				workforceNode(
					'Deactivate member',
					world().credential,
					memberParameters.deactivate(memberId),
				),
			]),
		);
		await world().client.activateWorkflow(lifecycle.id);

		const response = await fetch(`${world().n8n.url}/webhook/e2e-member-lifecycle`, {
			method: 'POST',
		});
		expect(response.status).toBe(200);
		const member = (await response.json()) as {
			id: string;
			is_active: boolean;
			is_verified: boolean;
		};
		expect(member).toEqual(expect.objectContaining({ is_active: false, is_verified: true }));

		await world().control.settleDeliveries();
		const executions = await world().client.waitForExecutions(listener.id, MEMBER_EVENTS.length);
		// deliveries travel concurrently, so executions may start in any order: order by occurrence
		const events = executions
			.map((execution) => nodeOutput(execution, TRIGGER))
			.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
		expect(executions).toHaveLength(MEMBER_EVENTS.length);
		expect(events.map((event) => event.type)).toEqual(MEMBER_EVENTS);
		expect(events.map((event) => (event.data as { id: string }).id)).toEqual(
			MEMBER_EVENTS.map(() => member.id),
		);
		expect((events[0].data as { source: string }).source).toBe('api');

		const registered = (await world().control.endpoints()).map((endpoint) => endpoint.id);
		const since = Date.now();
		await world().client.deactivateWorkflow(listener.id);
		await world().client.deactivateWorkflow(lifecycle.id);
		await endpointsRemoved(world().control, registered, { since, what: 'deactivation' });
		expect(await world().control.endpoints()).toEqual([]);
	});
});
