import type { RecordOutput } from '../common';

export const records: RecordOutput = {
	fields: [
		'id',
		'url',
		'description',
		'mode',
		'enabled',
		'events',
		'secret_preview',
		'consecutive_failures',
		'disabled_at',
		'disabled_reason',
		'last_delivery_at',
		'last_success_at',
		'created_at',
		'updated_at',
	],
	simplified: [
		'description',
		'url',
		'enabled',
		'events',
		'disabled_reason',
		'last_success_at',
		'id',
	],
};
