import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { authorizationHeader } from '../nodes/shared/transport';

export class WorkforceManagementApi implements ICredentialType {
	name = 'workforceManagementApi';

	displayName = 'Workforce Management API';

	icon: Icon = {
		light: 'file:../nodes/WorkforceManagement/workforceManagement.svg',
		dark: 'file:../nodes/WorkforceManagement/workforceManagement.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-workforce-management/n8n-nodes-workforce-management#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Created in the developer area of your Workforce Management account. A live key works on your organization, a test key on its sandbox organization.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://app.example.com/api/v1',
			description:
				'The API root of your Workforce Management instance, ending in /api/v1. A trailing slash is ignored, and /api/v1 is added when it is missing.',
		},
	];

	// A function, not the generic `'=Bearer {{$credentials.apiKey}}'`: n8n 2.36 and later evaluate
	// that expression in an isolate on every request, 15 % of the time to read 100,000 members
	// (bench/FINDINGS-2.41.md).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, ...authorizationHeader(credentials.apiKey) },
		};
	}

	// No `test` here: n8n would prefer it to the action node's credential test
	// (testedBy: workforceManagementApiTest), whose failures say what to fix.
}
