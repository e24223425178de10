import { endpointDescription } from '../../nodes/shared/webhooks';
import {
	findEndpointsElsewhere,
	findOwnEndpoints,
	isOwnEndpoint,
	normalizeEvents,
	reconcile,
	sameEvents,
	type RemoteEndpoint,
} from '../../nodes/WorkforceManagementTrigger/registration/reconcile';
import { secretMatchesPreview } from '../../nodes/WorkforceManagementTrigger/secrets/secretStore';
import type { StoredRegistration } from '../../nodes/WorkforceManagementTrigger/staticData';

const URL = 'https://n8n.example.com/webhook/6f1c1e0e-6a8b-4f43-9d1f-2a0b8c1d2e3f/webhook';
const WANTED = {
	url: URL,
	events: ['member.created', 'timesheet.approved'],
	description: endpointDescription('wf1', 'Payroll sync'),
};

const stored: StoredRegistration = {
	endpointId: 'b0a3b9e2-1d55-4bd4-8f4e-7d2c4f7f1a10',
	secret: 'whsec_stored',
	url: URL,
	events: WANTED.events,
};

function remote(overrides: Partial<RemoteEndpoint> = {}): RemoteEndpoint {
	return {
		id: stored.endpointId!,
		url: URL,
		description: endpointDescription('wf1', 'Payroll sync'),
		events: ['timesheet.approved', 'member.created'],
		enabled: true,
		secret_preview: 'whsec_…ored',
		...overrides,
	};
}

describe('reconcile', () => {
	const unchanged = { kind: 'adopt', changes: {}, roll: false };

	it('creates when nothing is stored or the stored endpoint is gone', () => {
		expect(reconcile({}, undefined, WANTED)).toEqual({ kind: 'create' });
		expect(reconcile(stored, undefined, WANTED)).toEqual({ kind: 'create' });
	});

	it('keeps a matching, enabled endpoint as it is (event order does not matter)', () => {
		expect(reconcile(stored, remote(), WANTED)).toEqual(unchanged);
	});

	it('re-enables a matching endpoint that was disabled', () => {
		expect(reconcile(stored, remote({ enabled: false }), WANTED)).toEqual({
			...unchanged,
			changes: { enabled: true },
		});
	});

	it('claims an endpoint whose deletion is pending by writing its description back', () => {
		const retired = remote({
			description: endpointDescription('wf1', 'Payroll sync', { token: 'ab12' }),
		});
		expect(reconcile(stored, retired, WANTED)).toEqual({
			...unchanged,
			changes: { description: WANTED.description },
			pendingDeletion: { token: 'ab12' },
		});
	});

	it('never adopts an endpoint that delivers elsewhere (another n8n, or an old WEBHOOK_URL)', () => {
		const elsewhere = remote({ url: URL.replace('n8n.example.com', 'staging.example.com') });
		expect(reconcile(stored, elsewhere, WANTED)).toEqual({ kind: 'create' });
	});

	it('updates the events in place when the event list was edited', () => {
		expect(reconcile(stored, remote({ events: ['member.created'] }), WANTED)).toEqual({
			...unchanged,
			changes: { events: WANTED.events },
		});
		expect(reconcile(stored, remote({ events: ['*'] }), WANTED)).toEqual({
			...unchanged,
			changes: { events: WANTED.events },
		});
	});

	it('rolls the secret of an endpoint whose secret is lost', () => {
		const rolled = { ...unchanged, roll: true };
		expect(reconcile({ endpointId: stored.endpointId }, remote(), WANTED)).toEqual(rolled);
		expect(reconcile({ ...stored, secret: '' }, remote(), WANTED)).toEqual(rolled);
		// without a preview to compare with, the empty secret alone must say it is lost
		expect(
			reconcile({ ...stored, secret: '' }, remote({ secret_preview: undefined }), WANTED),
		).toEqual(rolled);
	});

	it('rolls when someone else rolled the secret (the stored one expires in 24 hours)', () => {
		expect(reconcile(stored, remote({ secret_preview: 'whsec_…9f3a' }), WANTED)).toEqual({
			...unchanged,
			roll: true,
		});
	});

	it('changes a disabled, edited endpoint with an unknown secret in place, all at once', () => {
		expect(
			reconcile(
				{ endpointId: stored.endpointId },
				remote({ enabled: false, events: ['member.updated'] }),
				WANTED,
			),
		).toEqual({ kind: 'adopt', changes: { events: WANTED.events, enabled: true }, roll: true });
	});
});

describe('secretMatchesPreview', () => {
	it('compares the visible tail of the masked secret', () => {
		expect(secretMatchesPreview('whsec_0123abcd', 'whsec_…abcd')).toBe(true);
		expect(secretMatchesPreview('whsec_0123abcd', 'whsec_...abcd')).toBe(true);
		expect(secretMatchesPreview('whsec_0123abcd', 'whsec_…abce')).toBe(false);
		expect(secretMatchesPreview('whsec_0123abcd', 'whsec_...abce')).toBe(false);
	});

	it('trusts the secret when there is no readable preview', () => {
		expect(secretMatchesPreview('whsec_0123abcd', undefined)).toBe(true);
		expect(secretMatchesPreview('whsec_0123abcd', 'hidden')).toBe(true);
	});
});

describe('normalizeEvents / sameEvents', () => {
	it('sorts and removes duplicates', () => {
		expect(normalizeEvents(['b.x', 'a.y', 'b.x'])).toEqual(['a.y', 'b.x']);
	});

	it('lets All Events absorb every other choice', () => {
		expect(normalizeEvents(['member.created', '*'])).toEqual(['*']);
		expect(sameEvents(['*'], ['member.created', '*'])).toBe(true);
		expect(sameEvents(['*'], ['member.created'])).toBe(false);
	});

	it('compares as sets', () => {
		expect(sameEvents(['a', 'b'], ['b', 'a', 'a'])).toBe(true);
		expect(sameEvents(['a', 'b'], ['a'])).toBe(false);
		expect(sameEvents([], [])).toBe(true);
	});
});

describe('findOwnEndpoints', () => {
	const testUrl = URL.replace('/webhook/', '/webhook-test/');
	const endpoints = [
		remote({ id: 'ours' }),
		remote({ id: 'ours-renamed-workflow', description: endpointDescription('wf1', 'Old Name') }),
		remote({ id: 'other-workflow', description: endpointDescription('wf2', 'Trigger') }),
		remote({ id: 'workflow-id-prefix', description: endpointDescription('wf12', 'Trigger') }),
		remote({ id: 'ours-0.1.0', description: 'n8n workflow wf1 · Workforce Management Trigger' }),
		remote({ id: 'made-by-hand', description: 'Payroll integration' }),
		remote({ id: 'no-description', description: null }),
		remote({ id: 'test-registration', url: testUrl }),
		remote({ id: 'other-url', url: 'https://elsewhere.example.com/hook' }),
	];

	it('finds only endpoints with our URL and our workflow id in the description, old form included', () => {
		expect(findOwnEndpoints(endpoints, URL, 'wf1').map((e) => e.id)).toEqual([
			'ours',
			'ours-renamed-workflow',
			'ours-0.1.0',
		]);
	});

	it('keeps test and production registrations apart', () => {
		expect(findOwnEndpoints(endpoints, testUrl, 'wf1').map((e) => e.id)).toEqual([
			'test-registration',
		]);
	});

	it('finds nothing for another workflow with a different URL', () => {
		expect(findOwnEndpoints(endpoints, URL, 'wf3')).toEqual([]);
	});
});

describe('findEndpointsElsewhere', () => {
	it("finds this workflow's endpoints that deliver to another URL, and nothing else", () => {
		const staging = URL.replace('n8n.example.com', 'staging.example.com');
		const endpoints = [
			remote({ id: 'ours' }),
			remote({ id: 'production-copy', url: staging }),
			remote({ id: 'other-workflow', url: staging, description: endpointDescription('wf2', 'x') }),
		];
		expect(findEndpointsElsewhere(endpoints, URL, 'wf1').map((e) => e.id)).toEqual([
			'production-copy',
		]);
	});
});

describe('isOwnEndpoint', () => {
	it('needs both this URL and this workflow in the description', () => {
		expect(isOwnEndpoint(remote(), 'wf1', URL)).toBe(true);
		expect(isOwnEndpoint(remote(), 'wf1', URL.replace('n8n.', 'staging.'))).toBe(false);
		expect(isOwnEndpoint(remote(), 'wf2', URL)).toBe(false);
	});
});
