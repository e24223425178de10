import {
	forgetRegistration,
	registrationOf,
	restoreMissing,
	type TriggerStaticData,
} from '../../nodes/WorkforceManagementTrigger/staticData';

const REGISTRATION: TriggerStaticData = {
	endpointId: 'we_1',
	secret: 'sealed',
	url: 'https://n8n.example.com/webhook/a',
	events: ['member.created'],
	seenEnvelopes: { '490000': 'older' },
};

describe('registrationOf', () => {
	it('copies the registration and the memory, and nothing else', () => {
		const staticData = { ...REGISTRATION, unrelated: 1 } as TriggerStaticData;
		const copy = registrationOf(staticData);
		expect(copy).toEqual(REGISTRATION);
		copy.events?.push('member.updated');
		expect(staticData.events).toEqual(['member.created']);
	});
});

describe('restoreMissing', () => {
	it('fills what static data lacks and keeps what it has: a newer memory is not overwritten', () => {
		const staticData: TriggerStaticData = { seenEnvelopes: { '490000': 'newer' } };
		restoreMissing(staticData, registrationOf(REGISTRATION));
		expect(staticData).toEqual({ ...REGISTRATION, seenEnvelopes: { '490000': 'newer' } });
	});

	it('after forgetRegistration, brings the endpoint back', () => {
		const staticData = registrationOf(REGISTRATION);
		forgetRegistration(staticData);
		expect(staticData).toEqual({ seenEnvelopes: REGISTRATION.seenEnvelopes });
		restoreMissing(staticData, registrationOf(REGISTRATION));
		expect(staticData).toEqual(REGISTRATION);
	});
});
