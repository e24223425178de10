import {
	describedWorkflowId,
	describesWorkflow,
	endpointDescription,
	endpointMarkOf,
	MAX_DESCRIPTION_LENGTH,
	readableDescription,
	recoveryClaimOf,
	retirementMarkOf,
	withMark,
	withoutRecoveryClaim,
	withRecoveryClaim,
} from '../../nodes/shared/webhooks';

describe('the description of a trigger-registered endpoint', () => {
	it('names the workflow, then its id', () => {
		expect(endpointDescription('UhQysxdh1I3z9tfP', 'Payroll sync')).toBe(
			'Payroll sync (n8n workflow UhQysxdh1I3z9tfP)',
		);
		expect(endpointDescription('wf1', '  On timesheet\napproved  ')).toBe(
			'On timesheet approved (n8n workflow wf1)',
		);
		expect(endpointDescription('wf1', '')).toBe('n8n workflow wf1');
		expect(endpointDescription('wf1', 'Payroll \t  sync')).toBe('Payroll sync (n8n workflow wf1)');
	});

	it('cuts only a name that does not fit, and no space is left before the "…"', () => {
		const suffix = ' (n8n workflow wf1)';
		const room = MAX_DESCRIPTION_LENGTH - suffix.length;
		expect(endpointDescription('wf1', 'a'.repeat(room))).toBe(`${'a'.repeat(room)}${suffix}`);

		const cutAfterASpace = `${'a'.repeat(room - 2)} bbb`;
		expect(endpointDescription('wf1', cutAfterASpace)).toBe(`${'a'.repeat(room - 2)}…${suffix}`);
	});

	it(`cuts a long name with "…" to ${MAX_DESCRIPTION_LENGTH} characters, keeping the id whole`, () => {
		const description = endpointDescription('UhQysxdh1I3z9tfP', 'Sync '.repeat(100));
		expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
		expect(description.length).toBeGreaterThan(MAX_DESCRIPTION_LENGTH - 5);
		expect(description).toMatch(/^Sync Sync .*Sy… \(n8n workflow UhQysxdh1I3z9tfP\)$/);
		expect(describesWorkflow(description, 'UhQysxdh1I3z9tfP')).toBe(true);
	});

	it('never cuts a character made of two UTF-16 units in half', () => {
		const description = endpointDescription('wf1', '🚀'.repeat(300));
		expect(Array.from(description).length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
		expect(description).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
	});

	it('is recognised in its current form and in the form of version 0.1.0', () => {
		expect(describesWorkflow(endpointDescription('wf1', 'Payroll sync'), 'wf1')).toBe(true);
		expect(describesWorkflow(endpointDescription('wf1', ''), 'wf1')).toBe(true);
		expect(describesWorkflow('n8n workflow wf1 · Workforce Management Trigger', 'wf1')).toBe(true);
	});

	it('is not mistaken for another workflow or a hand-written description', () => {
		expect(describesWorkflow(endpointDescription('wf12', 'Payroll sync'), 'wf1')).toBe(false);
		expect(describesWorkflow(endpointDescription('wf1', 'Payroll sync'), 'wf12')).toBe(false);
		expect(describesWorkflow('n8n workflow wf12 · Trigger', 'wf1')).toBe(false);
		expect(describesWorkflow('Payroll integration', 'wf1')).toBe(false);
		expect(describesWorkflow(null, 'wf1')).toBe(false);
	});

	it('reads without the id', () => {
		expect(readableDescription(endpointDescription('wf1', 'Payroll (sync)'))).toBe(
			'Payroll (sync)',
		);
		expect(readableDescription('n8n workflow wf1 · Trigger')).toBe('n8n workflow wf1 · Trigger');
		expect(readableDescription('CRM')).toBe('CRM');
		// an id the trigger did not append last, e.g. a description edited in the API's UI
		expect(readableDescription('Sync (n8n workflow wf1) old')).toBe('Sync (n8n workflow wf1) old');
	});
});

describe("a recovery's claim in the description", () => {
	const claim = { token: '0a1b2c3d4e5f', untilMs: Date.parse('2026-11-27T18:10:00.000Z') };

	it('is read back as written, and leaves the description as it was once removed', () => {
		for (const description of [
			'Payroll sync (n8n workflow wf1)',
			'n8n workflow wf1 · Trigger',
			null,
		]) {
			const claimed = withRecoveryClaim(description, claim);
			expect(recoveryClaimOf(claimed)).toEqual(claim);
			expect(withoutRecoveryClaim(claimed) || null).toBe(description);
		}
	});

	it('replaces an earlier claim instead of stacking another', () => {
		const first = withRecoveryClaim('Sync (n8n workflow wf1)', { token: 'aa', untilMs: 0 });
		expect(withRecoveryClaim(first, claim)).toBe(
			withRecoveryClaim('Sync (n8n workflow wf1)', claim),
		);
	});

	it('does not hide whose endpoint it is, nor show in the endpoint list', () => {
		const claimed = withRecoveryClaim('Payroll sync (n8n workflow wf1)', claim);
		expect(describesWorkflow(claimed, 'wf1')).toBe(true);
		expect(describesWorkflow(withRecoveryClaim('n8n workflow wf1 · Trigger', claim), 'wf1')).toBe(
			true,
		);
		expect(describesWorkflow(claimed, 'wf2')).toBe(false);
		expect(readableDescription(claimed)).toBe('Payroll sync');
	});

	it('is no claim without its marker or with an unreadable time', () => {
		expect(recoveryClaimOf('Payroll sync (n8n workflow wf1)')).toBeUndefined();
		expect(recoveryClaimOf('[recovering missed events: ab until someday] x')).toBeUndefined();
		expect(recoveryClaimOf(null)).toBeUndefined();
	});
});

describe('the retirement mark of an endpoint whose deletion is pending', () => {
	const mark = { token: '9c2f04aa', deletionAt: 1796000010 };
	const retired = endpointDescription('wf1', 'Payroll sync', mark);
	// as an earlier version wrote it, without the time of the deletion
	const retiredWithoutTime = endpointDescription('wf1', 'Payroll sync', { token: '9c2f04aa' });

	it('follows the workflow id with its token and time, and still names the workflow for every reader', () => {
		expect(retired).toBe('Payroll sync (n8n workflow wf1; retired 9c2f04aa 1796000010)');
		expect(retirementMarkOf(retired)).toEqual(mark);
		expect(retirementMarkOf(retired)?.token).toBe('9c2f04aa');
		expect(describesWorkflow(retired, 'wf1')).toBe(true);
		expect(describesWorkflow(retired, 'wf')).toBe(false);
		expect(describedWorkflowId(retired)).toBe('wf1');
		expect(readableDescription(retired)).toBe('Payroll sync');
		const unnamed = endpointDescription('wf1', '', mark);
		expect(unnamed).toBe('n8n workflow wf1; retired 9c2f04aa 1796000010');
		expect(describesWorkflow(unnamed, 'wf1')).toBe(true);
		expect(retirementMarkOf(unnamed)).toEqual(mark);
	});

	it('is still read in the form without a time', () => {
		expect(retiredWithoutTime).toBe('Payroll sync (n8n workflow wf1; retired 9c2f04aa)');
		expect(retirementMarkOf(retiredWithoutTime)).toEqual({ token: '9c2f04aa' });
		expect(describesWorkflow(retiredWithoutTime, 'wf1')).toBe(true);
		expect(readableDescription(retiredWithoutTime)).toBe('Payroll sync');
		expect(describesWorkflow(endpointDescription('wf1', '', { token: '9c2f04aa' }), 'wf1')).toBe(
			true,
		);
	});

	it('is absent from the description activation writes, and from text that only looks alike', () => {
		expect(retirementMarkOf(endpointDescription('wf1', 'Payroll sync'))).toBeUndefined();
		expect(retirementMarkOf(null)).toBeUndefined();
		expect(retirementMarkOf('Payroll sync; retired soon')).toBeUndefined();
		expect(retirementMarkOf('Payroll sync; retired 9c2f04aa tomorrow')).toBeUndefined();
	});

	it(`keeps the marked description within ${MAX_DESCRIPTION_LENGTH} characters`, () => {
		const longMark = { token: '9c2f04aa9c2f04aa', deletionAt: 1796000010 };
		const long = endpointDescription('wf1', 'Sync '.repeat(100), longMark);
		expect(long.length).toBeLessThanOrEqual(MAX_DESCRIPTION_LENGTH);
		expect(retirementMarkOf(long)).toEqual(longMark);
	});
});

describe('describedWorkflowId: which workflow registered an endpoint', () => {
	it('reads the id from every form the trigger writes, retired or not, and 0.1.0’s', () => {
		expect(describedWorkflowId(endpointDescription('wf1', 'Payroll sync'))).toBe('wf1');
		expect(describedWorkflowId(endpointDescription('wf1', ''))).toBe('wf1');
		expect(describedWorkflowId(endpointDescription('wf1', 'Payroll sync', { token: 'ab12' }))).toBe(
			'wf1',
		);
		expect(describedWorkflowId('n8n workflow wf9 · On timesheet approved')).toBe('wf9');
	});

	it('finds none in a description someone else wrote', () => {
		expect(describedWorkflowId('CRM sync')).toBeUndefined();
		expect(describedWorkflowId('Sync (see n8n workflow docs) for CRM')).toBeUndefined();
		expect(describedWorkflowId(null)).toBeUndefined();
	});
});

describe('both marks at once: a recovery under way on an endpoint whose deletion is pending', () => {
	const claim = { token: '0a1b2c3d4e5f', untilMs: Date.parse('2026-11-27T18:10:00.000Z') };
	const retired = endpointDescription('wf1', 'Payroll sync', { token: '9c2f04aa' });
	const both = withRecoveryClaim(retired, claim);

	it('keeps each mark readable beside the other', () => {
		expect(both).toBe(
			'[recovering missed events: 0a1b2c3d4e5f until 2026-11-27T18:10:00.000Z] Payroll sync (n8n workflow wf1; retired 9c2f04aa)',
		);
		expect(recoveryClaimOf(both)).toEqual(claim);
		expect(retirementMarkOf(both)?.token).toBe('9c2f04aa');
	});

	it('still names the workflow, and neither mark shows in the endpoint list', () => {
		expect(describesWorkflow(both, 'wf1')).toBe(true);
		expect(describesWorkflow(both, 'wf2')).toBe(false);
		expect(describedWorkflowId(both)).toBe('wf1');
		expect(readableDescription(both)).toBe('Payroll sync');
		const unnamed = withRecoveryClaim(endpointDescription('wf1', '', { token: 'ab12' }), claim);
		expect(describesWorkflow(unnamed, 'wf1')).toBe(true);
		expect(describedWorkflowId(unnamed)).toBe('wf1');
		expect(describedWorkflowId(withRecoveryClaim('n8n workflow wf9 · Trigger', claim))).toBe('wf9');
	});

	it('removing the claim leaves the retirement mark, for the deletion still pending', () => {
		expect(withoutRecoveryClaim(both)).toBe(retired);
		expect(retirementMarkOf(withoutRecoveryClaim(both))?.token).toBe('9c2f04aa');
	});

	it('finds no workflow in a description someone else wrote, with a claim before it', () => {
		expect(describedWorkflowId(withRecoveryClaim('CRM sync', claim))).toBeUndefined();
		expect(readableDescription(withRecoveryClaim('CRM sync', claim))).toBe('CRM sync');
	});
});

describe('withMark: the one field a deactivation or an activation writes', () => {
	const claim = { token: '0a1b2c3d4e5f', untilMs: Date.parse('2026-11-27T18:10:00.000Z') };
	const plain = endpointDescription('wf1', 'Payroll sync');
	const retiredMark = { kind: 'retired' as const, token: '9c2f04aa', deletionAt: 1796000010 };
	const keptMark = { kind: 'kept' as const, token: '9c2f04aa', deletionAt: 1796000010 };

	it('writes the mark after the workflow id, as endpointDescription does', () => {
		expect(withMark(plain, retiredMark)).toBe(
			endpointDescription('wf1', 'Payroll sync', retiredMark),
		);
		expect(withMark('n8n workflow wf1', retiredMark)).toBe(
			'n8n workflow wf1; retired 9c2f04aa 1796000010',
		);
	});

	it('keeps a recovery’s claim and replaces the mark there was', () => {
		const claimed = withRecoveryClaim(plain, claim);
		const retired = withMark(claimed, retiredMark);
		expect(recoveryClaimOf(retired)).toEqual(claim);
		const kept = withMark(retired, keptMark);
		expect(kept).toBe(
			'[recovering missed events: 0a1b2c3d4e5f until 2026-11-27T18:10:00.000Z] Payroll sync (n8n workflow wf1; kept 9c2f04aa 1796000010)',
		);
		expect(endpointMarkOf(kept)).toEqual(keptMark);
		expect(retirementMarkOf(kept)).toBeUndefined();
		expect(withMark(kept, undefined)).toBe(claimed);
	});

	it('leaves every reader seeing the workflow through a kept mark', () => {
		const kept = withMark(plain, keptMark);
		expect(describesWorkflow(kept, 'wf1')).toBe(true);
		expect(describedWorkflowId(kept)).toBe('wf1');
		expect(readableDescription(kept)).toBe('Payroll sync');
		expect(retirementMarkOf(kept)?.token).toBeUndefined();
	});
});
