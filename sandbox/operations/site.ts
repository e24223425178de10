/** The API operations on sites (customer locations); mirrors nodes/WorkforceManagement/actions/site/. */
import { validationError } from '../errors';
import type { SiteInput, SitePatch } from '../resources';
import { newSite } from '../resources';
import * as schemas from '../schemas';
import type { Tenant } from '../store';
import type { Operation, OperationContext } from './handlers';
import { byId, createHandler, getHandler, listHandler, patchHandler } from './handlers';

function assertCustomerExists(tenant: Tenant, customerId: string): void {
	if (!tenant.customers.find(customerId)) {
		throw validationError([
			{
				field: 'customer_id',
				message: `no customer with id ${customerId} exists in this organization`,
			},
		]);
	}
}

const createSite = createHandler('sites', newSite, 'customer_location.created');

export const siteOperations: Operation[] = [
	{
		method: 'GET',
		path: '/sites',
		operationId: 'sites.list',
		summary: 'List sites, newest first',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: { querystring: schemas.siteListQuery },
		response: schemas.listOf(schemas.siteResponse),
		handler: listHandler('sites', ['customer_id', 'is_active']),
	},
	{
		method: 'POST',
		path: '/sites',
		operationId: 'sites.create',
		summary: "Create a site for one of the organization's customers",
		scope: 'customers:write',
		module: 'customers',
		status: 201,
		schema: { body: schemas.siteCreateBody },
		response: schemas.siteResponse,
		handler: (context: OperationContext<SiteInput>) => {
			assertCustomerExists(context.tenant, context.body.customer_id);
			return createSite(context);
		},
	},
	{
		method: 'GET',
		path: '/sites/:id',
		operationId: 'sites.get',
		summary: 'Get a site',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: byId,
		response: schemas.siteResponse,
		handler: getHandler('sites'),
	},
	{
		method: 'PATCH',
		path: '/sites/:id',
		operationId: 'sites.update',
		summary: 'Update a site (only supplied fields change)',
		scope: 'customers:write',
		module: 'customers',
		status: 200,
		schema: { ...byId, body: schemas.siteUpdateBody },
		response: schemas.siteResponse,
		handler: patchHandler<SitePatch>('sites', 'customer_location.updated'),
	},
];
