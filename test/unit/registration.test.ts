import { endpointDescription } from '../../nodes/shared/endpointDescription';
import {
	findOwnEndpoints,
	normalizeEvents,
	reconcile,
	sameEvents,
	secretMatchesPreview,
	type RemoteEndpoint,
	type StoredRegistration,
} from '../../nodes/WorkforceManagementTrigger/registration';

const URL = 'https://n8n.example.com/webhook/6f1c1e0e-6a8b-4f43-9d1f-2a0b8c1d2e3f/webhook';
const WANTED = { url: URL, events: ['member.created', 'timesheet.approved'] };

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
	it('creates when nothing is stored or the stored endpoint is gone', () => {
		expect(reconcile({}, undefined, WANTED)).toBe('create');
		expect(reconcile(stored, undefined, WANTED)).toBe('create');
	});

	it('keeps a matching, enabled endpoint (event order does not matter)', () => {
		expect(reconcile(stored, remote(), WANTED)).toBe('keep');
	});

	it('re-enables a matching endpoint that was disabled', () => {
		expect(reconcile(stored, remote({ enabled: false }), WANTED)).toBe('reenable');
	});

	it('replaces an endpoint whose URL differs (e.g. WEBHOOK_URL changed)', () => {
		const moved = remote({ url: URL.replace('n8n.example.com', 'old.example.com') });
		expect(reconcile(stored, moved, WANTED)).toBe('replace');
	});

	it('replaces an endpoint whose events differ (the event list was edited)', () => {
		expect(reconcile(stored, remote({ events: ['member.created'] }), WANTED)).toBe('replace');
		expect(reconcile(stored, remote({ events: ['*'] }), WANTED)).toBe('replace');
	});

	it('re-keys an enabled endpoint whose secret is lost', () => {
		expect(reconcile({ endpointId: stored.endpointId }, remote(), WANTED)).toBe('rekey');
		expect(reconcile({ ...stored, secret: '' }, remote(), WANTED)).toBe('rekey');
		// without a preview to compare with, the empty secret alone must say it is lost
		expect(
			reconcile({ ...stored, secret: '' }, remote({ secret_preview: undefined }), WANTED),
		).toBe('rekey');
	});

	it('re-keys when someone else rolled the secret (the stored one expires in 24 hours)', () => {
		expect(reconcile(stored, remote({ secret_preview: 'whsec_…9f3a' }), WANTED)).toBe('rekey');
	});

	it('replaces a disabled endpoint whose secret is unknown', () => {
		expect(reconcile({ endpointId: stored.endpointId }, remote({ enabled: false }), WANTED)).toBe(
			'replace',
		);
	});

	it('replaces a disabled endpoint that no longer matches instead of re-enabling it', () => {
		expect(reconcile(stored, remote({ enabled: false, events: ['member.updated'] }), WANTED)).toBe(
			'replace',
		);
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
