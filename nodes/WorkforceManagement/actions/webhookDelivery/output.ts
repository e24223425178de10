import type { RecordOutput } from '../common';

export const records: RecordOutput = {
	fields: [
		'id',
		'endpoint_id',
		'event_id',
		'event_type',
		'mode',
		'status',
		'attempts',
		'last_response_status',
		'last_error',
		'redelivery_of',
		'delivered_at',
		'created_at',
	],
	simplified: [
		'event_type',
		'status',
		'attempts',
		'last_response_status',
		'last_error',
		'created_at',
		'endpoint_id',
		'id',
	],
};
