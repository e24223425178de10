/**
 * The demo's example workflows. The end-to-end tests run them too, so what a newcomer clicks on is
 * what CI has checked.
 */
import { randomUUID } from 'node:crypto';

import { ACTION_NODE_VERSION } from '../harness/constants';
import type { WorkflowDefinition } from '../harness/n8n';
import {
	chainWorkflow,
	customerParameters,
	memberParameters,
	workforceNode,
	workforceTriggerNode,
	type CredentialReference,
	type WorkflowNode,
} from '../harness/workflows';

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
	/** The node refused what the person typed, naming the field: they can correct it. */
	refused: { title: 'Please check your sign-up' },
	/** Anything else (the API failed, the credential is wrong): nothing the person can correct. */
	failed: {
		title: 'We could not sign you up',
		message:
			'The sign-up service is not available right now, so no member record was created. Please try again later.',
	},
} as const;

/** What the Stop and Error node says in n8n's Executions list when no member was created. */
export const SIGNUP_FAILED_ERROR = 'No member was created for this sign-up';

/**
 * Whether the error item names something the person typed: the node's own refusal (`The "Phone"
 * field must be …`) or the API's validation answer (`The API refused the request: …`).
 */
const PERSON_CAN_CORRECT =
	'={{ /^(The "[^"]+" field |The API refused the request: )/.test($json.error) }}';

/**
 * n8n's Form Trigger (its page is `<n8n>/form/member-signup`) → Create member → a Form Ending
 * page: "You are signed up"; or, when no member was created, the node's message naming the field
 * to fix, or (the API failed) that the service could not sign them up. A Form node after the
 * trigger makes n8n answer the submission with a page that waits for the workflow (n8n 2.8.4 and
 * 2.41.1 alike); Form Trigger 2.2 cannot use Respond to Webhook. Both failure pages end in Stop and
 * Error, which runs once the page has been shown (the page's own request resumes the execution), so
 * that a sign-up without a member is an error in n8n's Executions list, not a success.
 */
/** The row of the sign-up form's own path (trigger, Create member, Signed up) on the canvas. */
const SIGNUP_MAIN_ROW = 320;

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
		// a failure goes to the second output, so the person sees it rather than a silent failure
		onError: 'continueErrorOutput',
	};
	const created = formEnding('Signed up', SIGNUP_PAGES.created.title, SIGNUP_PAGES.created.message);
	const correctable = ifNode('Can the person correct it?', PERSON_CAN_CORRECT);
	const refused = formEnding(
		'Sign-up refused',
		SIGNUP_PAGES.refused.title,
		// the node's message names the field; "(item 0)" means nothing to the person
		'={{ $json.error.replace(/ \\(item \\d+\\)$/, "") }}. Go back, correct it and sign up again.',
	);
	const failed = formEnding(
		'Sign-up failed',
		SIGNUP_PAGES.failed.title,
		SIGNUP_PAGES.failed.message,
	);
	const noMember: WorkflowNode = {
		name: 'No member created',
		type: 'n8n-nodes-base.stopAndError',
		typeVersion: 1,
		parameters: {
			errorType: 'errorMessage',
			errorMessage: `={{ "${SIGNUP_FAILED_ERROR}: " + $json.error }}`,
		},
	};
	const workflow = chainWorkflow('Sign-up form → create member', [trigger, create, created]);
	const [createdX] = workflow.nodes[2].position as number[];
	const at = (column: number, row: number) => ({
		id: randomUUID(),
		position: [createdX + column * 220, row],
	});
	const to = (node: WorkflowNode) => [{ node: node.name, type: 'main', index: 0 }];
	return {
		...workflow,
		nodes: [
			// the form's path on the bottom row, the failures' above it: the first time a published
			// workflow opens, n8n 2.41 shows its Production Checklist over the canvas's top left,
			// where the form trigger of a top row lands
			...workflow.nodes.map((node) => ({
				...node,
				position: [(node.position as number[])[0], SIGNUP_MAIN_ROW],
			})),
			{ ...at(0, 80), ...correctable },
			{ ...at(1, 0), ...refused },
			{ ...at(1, 160), ...failed },
			{ ...at(2, 80), ...noMember },
		],
		connections: {
			...workflow.connections,
			[create.name]: { main: [to(created), to(correctable)] },
			[correctable.name]: { main: [to(refused), to(failed)] },
			[refused.name]: { main: [to(noMember)] },
			[failed.name]: { main: [to(noMember)] },
		},
	};
}

/** n8n's If node on one boolean expression: output 0 when true, 1 when false. */
function ifNode(name: string, condition: string): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [
					{
						id: randomUUID(),
						leftValue: condition,
						rightValue: '',
						operator: { type: 'boolean', operation: 'true', singleValue: true },
					},
				],
				combinator: 'and',
			},
			options: {},
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
	const workflow = chainWorkflow('On timesheet approved → member and customer', [
		trigger,
		workforceNode('Get member', credential, memberParameters.get('$json.data.member_id'), NEWEST),
		workforceNode(
			'Get customer',
			credential,
			customerParameters.get(`$('${trigger.name}').item.json.data.customer_id`),
			NEWEST,
		),
	]);
	// above the two lookups, not the trigger: it lowers the row on the fitted canvas, out from
	// under the Production Checklist n8n 2.41 opens over the top left on a first visit
	const [, getMember] = workflow.nodes;
	const note = stickyNote(
		'What this does',
		'Runs on every approved timesheet: looks up who worked (Get member) and for whom (Get customer).\n\nTry it: `npm run demo:emit -- timesheet.approved`',
		{ position: [(getMember.position as number[])[0], -220], width: 320, height: 180 },
	);
	return { ...workflow, nodes: [...workflow.nodes, note] };
}

/** n8n's Sticky Note: Markdown on the canvas, run by nothing. */
function stickyNote(
	name: string,
	content: string,
	{ position, width, height }: { position: number[]; width: number; height: number },
): WorkflowNode & { position: number[] } {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.stickyNote',
		typeVersion: 1,
		position,
		parameters: { content, width, height },
	};
}

/** On member.created → Verify member: both of our nodes on one canvas (imported inactive). */
export function verifyNewMembersWorkflow(credential: CredentialReference): WorkflowDefinition {
	return chainWorkflow('On member created → verify member', [
		workforceTriggerNode('On member created', credential, ['member.created']),
		workforceNode('Verify member', credential, memberParameters.verify('$json.data.id'), NEWEST),
	]);
}
