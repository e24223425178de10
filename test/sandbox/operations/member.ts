/** The API operations on members; mirrors nodes/WorkforceManagement/actions/member/. */
import type { MemberPatch } from '../resources';
import { newMember } from '../resources';
import * as schemas from '../schemas';
import type { Operation } from './handlers';
import { byId, createHandler, getHandler, listHandler, patchHandler, touch } from './handlers';

export const memberOperations: Operation[] = [
	{
		method: 'GET',
		path: '/members',
		operationId: 'members.list',
		summary: 'List members, newest first',
		scope: 'members:read',
		module: 'members',
		status: 200,
		schema: { querystring: schemas.memberListQuery },
		response: schemas.listOf(schemas.memberResponse),
		handler: listHandler('members', ['status', 'is_verified', 'is_active']),
	},
	{
		method: 'POST',
		path: '/members',
		operationId: 'members.create',
		summary: 'Create a member (status draft)',
		scope: 'members:write',
		module: 'members',
		status: 201,
		schema: { body: schemas.memberCreateBody },
		response: schemas.memberResponse,
		handler: createHandler('members', newMember, 'member.created', (member) => ({
			...member,
			source: 'api',
		})),
	},
	{
		method: 'GET',
		path: '/members/:id',
		operationId: 'members.get',
		summary: 'Get a member',
		scope: 'members:read',
		module: 'members',
		status: 200,
		schema: byId,
		response: schemas.memberResponse,
		handler: getHandler('members'),
	},
	{
		method: 'PATCH',
		path: '/members/:id',
		operationId: 'members.update',
		summary: 'Update a member (only supplied fields change)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.memberUpdateBody },
		response: schemas.memberResponse,
		handler: patchHandler<MemberPatch>('members', 'member.updated'),
	},
	{
		method: 'POST',
		path: '/members/:id/verify',
		operationId: 'members.verify',
		summary: 'Verify a member (is_verified true)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.memberResponse,
		handler: ({ tenant, params, store, engine }) => {
			const member = tenant.members.get(params.id).resource;
			member.is_verified = true;
			touch(member, store);
			engine.emit(tenant, 'member.verified', member);
			return member;
		},
	},
	{
		method: 'POST',
		path: '/members/:id/deactivate',
		operationId: 'members.deactivate',
		summary: 'Deactivate a member (is_active false, status inactive)',
		scope: 'members:write',
		module: 'members',
		status: 200,
		schema: { ...byId, body: schemas.emptyBody },
		response: schemas.memberResponse,
		handler: ({ tenant, params, store, engine }) => {
			const member = tenant.members.get(params.id).resource;
			member.is_active = false;
			member.status = 'inactive';
			touch(member, store);
			engine.emit(tenant, 'member.deactivated', member);
			return member;
		},
	},
];
