import type { RecordOutput } from '../common';
import { contactPaths } from './fields';

export const records: RecordOutput = {
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
	simplified: [
		'business_name',
		'display_name',
		'status',
		'is_verified',
		'capacity',
		'email',
		'phone',
		'address',
		'id',
	],
	lifted: contactPaths,
};
