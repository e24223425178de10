import type { IDataObject } from 'n8n-workflow';

import type { RecordOutput } from '../common';

export const output: RecordOutput = {
	operations: ['getAll'],
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
	simplify(delivery: IDataObject): IDataObject {
		return {
			id: delivery.id,
			event_type: delivery.event_type,
			status: delivery.status,
			attempts: delivery.attempts,
			last_response_status: delivery.last_response_status,
			last_error: delivery.last_error,
			endpoint_id: delivery.endpoint_id,
			created_at: delivery.created_at,
		};
	},
};
