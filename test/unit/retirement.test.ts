import { sleep } from 'n8n-workflow';
import type { IHookFunctions } from 'n8n-workflow';

import {
	backgroundSettled,
	inBackground,
	TRIGGER_DELAYS,
} from '../../nodes/WorkforceManagementTrigger/background';
import { operatorLog } from '../../nodes/WorkforceManagementTrigger/operatorLog';
import {
	deletionTime,
	reclaim,
	registrationKey,
	retire,
} from '../../nodes/WorkforceManagementTrigger/registration/retirement';

const grace = TRIGGER_DELAYS.republishGraceSeconds;
beforeAll(() => {
	TRIGGER_DELAYS.republishGraceSeconds = 0.02;
});
afterAll(() => {
	TRIGGER_DELAYS.republishGraceSeconds = grace;
});

/** A deletion that records which endpoint it deleted. */
function deletions() {
	const deleted: string[] = [];
	const deleteEndpoint = (endpointId: string) => async () => void deleted.push(endpointId);
	return { deleted, deleteEndpoint };
}

describe('retire and reclaim: make before break when a workflow is republished', () => {
	it('deletes the endpoint once the grace period ends without a reclaim', async () => {
		const { deleted, deleteEndpoint } = deletions();
		retire('key-ends', deleteEndpoint('we_1'), deletionTime());
		expect(deleted).toEqual([]);
		await backgroundSettled('retirement');
		expect(deleted).toEqual(['we_1']);
		expect(await reclaim('key-ends')).toBe(false);
	});

	it('is taken back within the grace period, once, and deletes nothing', async () => {
		const { deleted, deleteEndpoint } = deletions();
		retire('key-reclaimed', deleteEndpoint('we_2'), deletionTime());
		expect(await reclaim('key-reclaimed')).toBe(true);
		expect(await reclaim('key-reclaimed')).toBe(false);
		await backgroundSettled('retirement');
		expect(deleted).toEqual([]);
	});

	it('deletes only the registration retired last under a key', async () => {
		const { deleted, deleteEndpoint } = deletions();
		retire('key-twice', deleteEndpoint('we_old'), deletionTime());
		retire('key-twice', deleteEndpoint('we_new'), deletionTime());
		await backgroundSettled('retirement');
		expect(deleted).toEqual(['we_new']);
	});

	it('waits for a deletion under way before it is taken back', async () => {
		const steps: string[] = [];
		retire(
			'key-under-way',
			async () => {
				steps.push('deletion started');
				await sleep(50);
				steps.push('deletion ended');
			},
			deletionTime(),
		);
		while (steps.length === 0) await sleep(5);
		expect(await reclaim('key-under-way')).toBe(true);
		steps.push('reclaimed');
		expect(steps).toEqual(['deletion started', 'deletion ended', 'reclaimed']);
	});

	it('waits until the time it is given, not the grace period', async () => {
		const { deleted, deleteEndpoint } = deletions();
		retire('key-timed', deleteEndpoint('we_4'), Date.now() / 1000 + 1);
		await sleep(100);
		expect(deleted).toEqual([]);
		await backgroundSettled('retirement');
		expect(deleted).toEqual(['we_4']);
	});

	it('keys registrations by workflow, node and URL, apart wherever one ends', () => {
		expect(registrationKey('wf-1', '2n', 'https://n8n/webhook')).not.toBe(
			registrationKey('wf-12', 'n', 'https://n8n/webhook'),
		);
		expect(registrationKey('wf-1', 'n', 'u')).not.toBe(registrationKey('wf-2', 'n', 'u'));
		expect(registrationKey(undefined, 'n', 'u')).toBe(registrationKey('', 'n', 'u'));
	});
});

describe('inBackground', () => {
	it('starts the work after the delay, in seconds', async () => {
		let ran = false;
		inBackground('recovery', 0.2, async () => {
			ran = true;
		});
		await sleep(20);
		expect(ran).toBe(false);
		await backgroundSettled('recovery');
		expect(ran).toBe(true);
	});

	it('waits for the work of the kind asked about only', async () => {
		let retired = false;
		let recovered = false;
		inBackground('retirement', 0.3, async () => {
			retired = true;
		});
		inBackground('recovery', 0, async () => {
			recovered = true;
		});
		await backgroundSettled('recovery');
		expect([recovered, retired]).toEqual([true, false]);
		await backgroundSettled('retirement');
		expect(retired).toBe(true);
	});
});

describe('operatorLog', () => {
	it('names the node and the workflow, and carries them as metadata', () => {
		const context = {
			getWorkflow: () => ({ id: 'wf-7', name: 'Payroll sync' }),
			getNode: () => ({ name: 'On timesheet approved' }),
		} as unknown as IHookFunctions;
		expect(operatorLog(context)).toEqual({
			where:
				'Workforce Management Trigger "On timesheet approved" in workflow "Payroll sync" (wf-7)',
			meta: { workflowId: 'wf-7', node: 'On timesheet approved' },
		});
	});
});
