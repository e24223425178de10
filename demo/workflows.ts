/**
 * The demo's example workflows. The end-to-end tests run them too, so what a newcomer clicks on is
 * what CI has checked.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	ACTION_NODE_TYPE,
	ACTION_NODE_VERSION,
	CREDENTIAL_TYPE,
	PACKAGE_ROOT,
} from '../test/support/constants';
import type { WorkflowDefinition } from '../test/support/n8n';
import {
	chainWorkflow,
	customerParameters,
	memberParameters,
	workforceNode,
	workforceTriggerNode,
	type CredentialReference,
	type WorkflowNode,
} from '../test/support/workflows';

/** The demo shows what a user adding the node today gets (Output: Simplified). */
const NEWEST = ACTION_NODE_VERSION.newest;

export const SIGNUP_FORM_PATH = 'member-signup';
export const SIGNUP_FORM_FIELDS = ['Name', 'Email', 'Phone'] as const;

/** The page a person sees after signing up, title and message. */
export const SIGNUP_PAGES = {
	created: {
		title: 'You are signed up',
		message: 'Welcome to Acme Staffing: your member record is created as a draft.',
	},
	refused: { title: 'Please check your sign-up' },
} as const;

/**
 * n8n's Form Trigger (its page is `<n8n>/form/member-signup`) → Create member → a Form Ending
 * page: "You are signed up", or, when the node refuses the input, its message (which names the
 * field to fix). A Form node after the trigger makes n8n answer the submission with a page that
 * waits for the workflow (n8n 2.8.4 and 2.41.1 alike); Form Trigger 2.2 cannot use Respond to
 * Webhook.
 */
export function signupFormWorkflow(credential: CredentialReference): WorkflowDefinition {
	const [name, email, phone] = SIGNUP_FORM_FIELDS;
	const trigger: WorkflowNode = {
		name: 'Sign-up form',
		type: 'n8n-nodes-base.formTrigger',
		typeVersion: 2.2,
		webhookId: randomUUID(),
		parameters: {
			formTitle: 'Join Acme Staffing',
			formDescription:
				'Sign up as a member. The form creates you as a draft member through the Workforce Management API.',
			formFields: {
				values: [
					{ fieldLabel: name, placeholder: 'Riverside Care Services', requiredField: true },
					// the browser checks an email field's shape; n8n's form has no pattern for a phone
					{ fieldLabel: email, fieldType: 'email', placeholder: 'dana@riverside.example' },
					{ fieldLabel: phone, placeholder: '+1 555 0100 (digits, spaces, +, -)' },
				],
			},
			options: { path: SIGNUP_FORM_PATH, buttonLabel: 'Sign up' },
		},
	};
	const create = {
		...workforceNode(
			'Create member',
			credential,
			memberParameters.create({
				businessName: `={{ $json.${name} }}`,
				email: `={{ $json.${email} }}`,
				phone: `={{ $json.${phone} }}`,
			}),
			NEWEST,
		),
		// a refusal goes to the second output, so the person sees it rather than a silent failure
		onError: 'continueErrorOutput',
	};
	const created = formEnding('Signed up', SIGNUP_PAGES.created.title, SIGNUP_PAGES.created.message);
	const refused = formEnding(
		'Sign-up refused',
		SIGNUP_PAGES.refused.title,
		// the node's message names the field; "(item 0)" means nothing to the person
		'={{ $json.error.replace(/ \\(item \\d+\\)$/, "") }}. Go back, correct it and sign up again.',
	);
	const workflow = chainWorkflow('Sign-up form → create member', [trigger, create, created]);
	const [createdX] = workflow.nodes[2].position as number[];
	return {
		...workflow,
		nodes: [...workflow.nodes, { id: randomUUID(), position: [createdX, 200], ...refused }],
		connections: {
			...workflow.connections,
			[create.name]: {
				main: [
					[{ node: created.name, type: 'main', index: 0 }],
					[{ node: refused.name, type: 'main', index: 0 }],
				],
			},
		},
	};
}

/** n8n's Form Ending: the last page of the form, showing `title` and `message`. */
function formEnding(name: string, title: string, message: string): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.form',
		typeVersion: 2.3,
		webhookId: randomUUID(),
		parameters: {
			operation: 'completion',
			respondWith: 'text',
			completionTitle: title,
			completionMessage: message,
			options: {},
		},
	};
}

const FORM_WAIT_MS = 30_000;

/** The words of an HTML page, without its styles, scripts and tags. */
function pageText(html: string): string {
	return html
		.replace(/<(style|script)[\s\S]*?<\/\1>/g, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/&quot;/g, '"')
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * Submits the sign-up form as the form page's script does (n8n names the fields `field-<index>`),
 * then follows n8n's answer, `{ formWaitingUrl }`, as the script does: waits until the workflow
 * reaches its Form Ending and answers the text of the page the person then sees.
 */
export async function submitSignupForm(
	n8nUrl: string,
	values: { name: string; email: string; phone: string },
): Promise<string> {
	const form = new FormData();
	[values.name, values.email, values.phone].forEach((value, index) =>
		form.append(`field-${index}`, value),
	);
	const response = await fetch(`${n8nUrl}/form/${SIGNUP_FORM_PATH}`, {
		method: 'POST',
		body: form,
	});
	if (!response.ok) throw new Error(`n8n answered the form with ${response.status}`);
	const { formWaitingUrl } = (await response.json()) as { formWaitingUrl: string };
	const statusUrl = new URL(formWaitingUrl);
	statusUrl.pathname += '/n8n-execution-status';
	const startedAt = Date.now();
	while ((await (await fetch(statusUrl)).text()) === 'running') {
		if (Date.now() - startedAt > FORM_WAIT_MS) {
			throw new Error(`The sign-up workflow was still running after ${FORM_WAIT_MS / 1000} s`);
		}
		await new Promise((wake) => setTimeout(wake, 250));
	}
	return pageText(await (await fetch(formWaitingUrl)).text());
}

/** On timesheet.approved → a one-line summary of the approved timesheet (visible in Executions). */
export function timesheetApprovedWorkflow(
	credential: CredentialReference,
): WorkflowDefinition & { triggerWebhookId: string } {
	const trigger = workforceTriggerNode('On timesheet approved', credential, ['timesheet.approved']);
	const workflow = chainWorkflow('On timesheet approved → summary', [
		trigger,
		{
			name: 'Approved timesheet summary',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				includeOtherFields: false,
				assignments: {
					assignments: [
						{
							id: randomUUID(),
							name: 'summary',
							type: 'string',
							value:
								'=Timesheet {{ $json.data.id }} approved: {{ $json.data.hours_worked }} h worked by member {{ $json.data.member_id }}',
						},
						{ id: randomUUID(), name: 'event_id', type: 'string', value: '={{ $json.id }}' },
						{
							id: randomUUID(),
							name: 'hours_worked',
							type: 'number',
							value: '={{ $json.data.hours_worked }}',
						},
					],
				},
				options: {},
			},
		},
	]);
	return { ...workflow, triggerWebhookId: trigger.webhookId };
}

/**
 * On timesheet.approved → who worked (Member → Get with the event's member_id) → for whom
 * (Customer → Get with the event's customer_id): the chain the README's Usage describes.
 */
export function timesheetLookupWorkflow(credential: CredentialReference): WorkflowDefinition {
	const trigger = workforceTriggerNode('On timesheet approved', credential, ['timesheet.approved']);
	return chainWorkflow('On timesheet approved → member and customer', [
		trigger,
		workforceNode('Get member', credential, memberParameters.get('$json.data.member_id'), NEWEST),
		workforceNode(
			'Get customer',
			credential,
			customerParameters.get(`$('${trigger.name}').item.json.data.customer_id`),
			NEWEST,
		),
	]);
}

/** On member.created → Verify member: both of our nodes on one canvas (imported inactive). */
export function verifyNewMembersWorkflow(credential: CredentialReference): WorkflowDefinition {
	return chainWorkflow('On member created → verify member', [
		workforceTriggerNode('On member created', credential, ['member.created']),
		workforceNode('Verify member', credential, memberParameters.verify('$json.data.id'), NEWEST),
	]);
}

/** The companion workflow the README's installation names, as users import it. */
export const RECOVER_MISSED_EVENTS_FILE = join(
	PACKAGE_ROOT,
	'docs/workflows/recover-missed-events.json',
);

/**
 * `docs/workflows/recover-missed-events.json`: every 5 minutes, Webhook Endpoint → Recover Missed
 * Events for the triggers of this n8n (n8n 2.36+ runs no trigger method at start-up, so after an
 * outage nothing else re-enables the endpoint). With `credential`, and another interval if asked.
 */
export function recoverMissedEventsWorkflow(
	credential: CredentialReference,
	everyMinutes?: number,
): WorkflowDefinition {
	const workflow = JSON.parse(
		readFileSync(RECOVER_MISSED_EVENTS_FILE, 'utf8'),
	) as WorkflowDefinition;
	for (const node of workflow.nodes) {
		if (node.type === ACTION_NODE_TYPE) node.credentials = { [CREDENTIAL_TYPE]: credential };
		const rule = (node.parameters as { rule?: { interval: Array<Record<string, unknown>> } }).rule;
		if (rule && everyMinutes !== undefined) rule.interval[0].minutesInterval = everyMinutes;
	}
	if (!workflow.nodes.some((node) => node.credentials)) {
		throw new Error(`${RECOVER_MISSED_EVENTS_FILE} has no ${ACTION_NODE_TYPE} node`);
	}
	return workflow;
}
