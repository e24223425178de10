import type { IDataObject } from 'n8n-workflow';

import { addressLine } from '../common';
import type { RecordOutput } from '../common';

export const output: RecordOutput = {
	operations: ['create', 'deactivate', 'get', 'getAll', 'update', 'verify'],
	fields: [
		'id',
		'business_name',
		'display_name',
		'description',
		'status',
		'is_active',
		'is_verified',
		'capacity',
		'age_groups',
		'employment_relationship',
		'contract_type',
		'contract_start_date',
		'contract_end_date',
		'contact',
		'address',
		'created_at',
		'updated_at',
	],
	simplify(member: IDataObject): IDataObject {
		const contact = (member.contact ?? {}) as IDataObject;
		return {
			id: member.id,
			business_name: member.business_name,
			display_name: member.display_name,
			status: member.status,
			is_verified: member.is_verified,
			capacity: member.capacity,
			email: contact.email ?? null,
			phone: contact.phone ?? null,
			address: addressLine(member.address),
		};
	},
};
