import type { RecordOutput } from '../common';

export const records: RecordOutput = {
	fields: [
		'id',
		'customer_id',
		'name',
		'address',
		'is_active',
		'contact_name',
		'contact_phone',
		'orientation_required',
		'staff_requirements',
		'notes',
		'created_at',
		'updated_at',
	],
	simplified: [
		'name',
		'is_active',
		'contact_name',
		'contact_phone',
		'address',
		'orientation_required',
		'customer_id',
		'id',
	],
};
