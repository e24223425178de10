import type { IDataObject } from 'n8n-workflow';

import { addressLine } from '../common';
import type { RecordOutput } from '../common';

export const output: RecordOutput = {
	operations: ['create', 'get', 'getAll', 'update'],
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
	simplify(site: IDataObject): IDataObject {
		return {
			id: site.id,
			name: site.name,
			customer_id: site.customer_id,
			is_active: site.is_active,
			contact_name: site.contact_name,
			contact_phone: site.contact_phone,
			address: addressLine(site.address),
			orientation_required: site.orientation_required,
		};
	},
};
