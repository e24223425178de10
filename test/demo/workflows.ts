/**
 * The demo's example workflows. The end-to-end tests run them too, so what a newcomer clicks on is
 * what CI has checked.
 */
import { randomUUID } from 'node:crypto';

import { ACTION_NODE_VERSION } from '../support/constants';
import type { WorkflowDefinition } from '../support/n8n';
import {
	chainWorkflow,
	customerParameters,
	memberParameters,
	workforceNode,
	workforceTriggerNode,
	type CredentialReference,
} from '../support/workflows';

/** The demo shows what a user adding the node today gets (Output: Simplified). */
const NEWEST = ACTION_NODE_VERSION.newest;

export const SIGNUP_FORM_PATH = 'member-signup';
export const SIGNUP_FORM_FIELDS = ['Name', 'Email', 'Phone'] as const;

/** n8n's Form Trigger (its page is `<n8n>/form/member-signup`) → Create Member. */
export function signupFormWorkflow(credential: CredentialReference): WorkflowDefinition {
	const [name, email, phone] = SIGNUP_FORM_FIELDS;
	return chainWorkflow('Sign-up form → create member', [
		{
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
						{ fieldLabel: email, fieldType: 'email', placeholder: 'dana@riverside.example' },
						{ fieldLabel: phone, placeholder: '+1 555 0100' },
					],
				},
				responseMode: 'onReceived',
				options: {
					path: SIGNUP_FORM_PATH,
					buttonLabel: 'Sign up',
					respondWithOptions: {
						values: {
							respondWith: 'text',
							formSubmittedText:
								'Thank you! Your member record is being created in Workforce Management.',
						},
					},
				},
			},
		},
		workforceNode(
			'Create member',
			credential,
			memberParameters.create({
				businessName: `={{ $json.${name} }}`,
				email: `={{ $json.${email} }}`,
				phone: `={{ $json.${phone} }}`,
			}),
			NEWEST,
		),
	]);
}

/** Submits the sign-up form the way the browser does (n8n names the fields `field-<index>`). */
export async function submitSignupForm(
	n8nUrl: string,
	values: { name: string; email: string; phone: string },
): Promise<Response> {
	const form = new FormData();
	[values.name, values.email, values.phone].forEach((value, index) =>
		form.append(`field-${index}`, value),
	);
	return await fetch(`${n8nUrl}/form/${SIGNUP_FORM_PATH}`, { method: 'POST', body: form });
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
