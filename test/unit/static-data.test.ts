import {
	forgetRegistration,
	type TriggerStaticData,
} from '../../nodes/WorkforceManagementTrigger/staticData';

const REGISTRATION: TriggerStaticData = {
	endpointId: 'we_1',
	secret: 'sealed',
	url: 'https://n8n.example.com/webhook/a',
	events: ['member.created'],
	seenEnvelopes: { '490000': 'older' },
};

describe('forgetRegistration', () => {
	it('removes the endpoint and keeps the duplicate memory and anything else', () => {
		const staticData = { ...REGISTRATION, unrelated: 1 } as TriggerStaticData;
		forgetRegistration(staticData);
		expect(staticData).toEqual({ seenEnvelopes: REGISTRATION.seenEnvelopes, unrelated: 1 });
	});
});
