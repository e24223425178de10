import type { RecordOutput } from '../common';

export const records: RecordOutput = {
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
	simplified: [
		'name',
		'status',
		'contact_name',
		'contact_email',
		'contact_phone',
		'address',
		'billing_rate',
		'id',
	],
};
