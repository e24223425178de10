import type { IDataObject } from 'n8n-workflow';

import { addressLine } from '../common';
import type { RecordOutput } from '../common';

export const output: RecordOutput = {
	operations: ['create', 'get', 'getAll', 'update'],
	fields: [
		'id',
		'name',
		'status',
		'contact_name',
		'contact_email',
		'contact_phone',
		'address',
		'contract_start',
		'contract_end',
		'billing_rate',
		'notes',
		'created_at',
		'updated_at',
	],
	simplify(customer: IDataObject): IDataObject {
		return {
			id: customer.id,
			name: customer.name,
			status: customer.status,
			contact_name: customer.contact_name,
			contact_email: customer.contact_email,
			contact_phone: customer.contact_phone,
			address: addressLine(customer.address),
			billing_rate: customer.billing_rate,
		};
	},
};
