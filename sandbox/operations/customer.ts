/** The API operations on customers; mirrors nodes/WorkforceManagement/actions/customer/. */
import type { CustomerPatch } from '../resources';
import { newCustomer } from '../resources';
import * as schemas from '../schemas';
import type { Operation } from './handlers';
import { byId, createHandler, getHandler, listHandler, patchHandler } from './handlers';

export const customerOperations: Operation[] = [
	{
		method: 'GET',
		path: '/customers',
		operationId: 'customers.list',
		summary: 'List customers, newest first',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: { querystring: schemas.customerListQuery },
		response: schemas.listOf(schemas.customerResponse),
		handler: listHandler('customers', ['status']),
	},
	{
		method: 'POST',
		path: '/customers',
		operationId: 'customers.create',
		summary: 'Create a customer',
		scope: 'customers:write',
		module: 'customers',
		status: 201,
		schema: { body: schemas.customerCreateBody },
		response: schemas.customerResponse,
		handler: createHandler('customers', newCustomer, 'customer.created'),
	},
	{
		method: 'GET',
		path: '/customers/:id',
		operationId: 'customers.get',
		summary: 'Get a customer',
		scope: 'customers:read',
		module: 'customers',
		status: 200,
		schema: byId,
		response: schemas.customerResponse,
		handler: getHandler('customers'),
	},
	{
		method: 'PATCH',
		path: '/customers/:id',
		operationId: 'customers.update',
		summary: 'Update a customer (only supplied fields change)',
		scope: 'customers:write',
		module: 'customers',
		status: 200,
		schema: { ...byId, body: schemas.customerUpdateBody },
		response: schemas.customerResponse,
		handler: patchHandler<CustomerPatch>('customers', 'customer.updated'),
	},
];
