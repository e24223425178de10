export const CREDENTIAL_TYPE = 'workforceManagementApi';
