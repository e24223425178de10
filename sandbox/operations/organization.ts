/** The API operations on the organization; mirrors nodes/WorkforceManagement/actions/organization/. */
import * as schemas from '../schemas';
import type { Operation } from './handlers';

export const organizationOperations: Operation[] = [
	{
		method: 'GET',
		path: '/organization',
		operationId: 'organization.get',
		summary: 'Get the organization of the API key',
		scope: 'organization:read',
		status: 200,
		schema: {},
		response: schemas.organizationResponse,
		handler: ({ tenant }) => tenant.organization,
	},
];
