export const CREDENTIAL_TYPE = 'workforceManagementApi';

/** The scope each operation needs; 403 errors name it. */
export const SCOPE = {
	organizationRead: 'organization:read',
	membersRead: 'members:read',
	membersWrite: 'members:write',
	customersRead: 'customers:read',
	customersWrite: 'customers:write',
	webhooksRead: 'webhooks:read',
	webhooksWrite: 'webhooks:write',
} as const;
