/** The API operations on members; mirrors nodes/WorkforceManagement/actions/member/. */
import type { MemberPatch } from '../resources';
import { newMember } from '../resources';
import * as schemas from '../schemas';
import type { Member } from '../store';
import type { Operation } from './handlers';
import { byId, createHandler, getHandler, listHandler, patchHandler, touch } from './handlers';

/**
 * POST of an action on a member (verify, deactivate): `change` is made, then the member is touched
 * and announced with `eventType`.
 */
function memberAction(eventType: string, change: (member: Member) => void): Operation['handler'] {
	return ({ tenant, params, store, engine }) => {
		const member = tenant.members.get(params.id).resource;
		change(member);
		touch(member, store);
		engine.emit(tenant, eventType, member);
		return member;
	};
}

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
		handler: memberAction('member.verified', (member) => {
			member.is_verified = true;
		}),
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
		handler: memberAction('member.deactivated', (member) => {
			member.is_active = false;
			member.status = 'inactive';
		}),
	},
];
