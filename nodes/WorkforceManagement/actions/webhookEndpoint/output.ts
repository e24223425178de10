import type { IDataObject } from 'n8n-workflow';

import type { RecordOutput } from '../common';

export const output: RecordOutput = {
	operations: ['create', 'get', 'getAll', 'update'],
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
	simplify(endpoint: IDataObject): IDataObject {
		return {
			id: endpoint.id,
			url: endpoint.url,
			description: endpoint.description,
			enabled: endpoint.enabled,
			events: endpoint.events,
			disabled_reason: endpoint.disabled_reason,
			last_success_at: endpoint.last_success_at,
		};
	},
};
