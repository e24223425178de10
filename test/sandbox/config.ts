export type Mode = 'live' | 'test';

export const SCOPES = [
	'organization:read',
	'members:read',
	'members:write',
	'customers:read',
	'customers:write',
	'webhooks:read',
	'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export type OrganizationStatus = 'draft' | 'demo' | 'active' | 'suspended' | 'cancelled';

export interface ApiKeyConfig {
	key: string;
	mode: Mode;
	scopes: string[];
}

export interface OrganizationConfig {
	name: string;
	slug: string;
	status: OrganizationStatus;
	modules: string[];
	keys: ApiKeyConfig[];
}

export interface WebhooksConfig {
	/** Accept `http://` URLs whose host is loopback (a local n8n). */
	allowInsecureUrls: boolean;
	/** Delay before each retry; attempts in all = min(8, length + 1). */
	retryDelaysSeconds: number[];
	/** Consecutive failed attempts after which an endpoint is disabled. */
	autoDisableAfter: number;
	/** Per-attempt time-out of an outgoing delivery. */
	timeoutMs: number;
}

export interface RateLimitConfig {
	requests: number;
	perSeconds: number;
}

export interface SandboxConfig {
	organizations: OrganizationConfig[];
	webhooks: WebhooksConfig;
	rateLimit: RateLimitConfig;
}

export interface DeepPartialConfig {
	organizations?: OrganizationConfig[];
	webhooks?: Partial<WebhooksConfig>;
	rateLimit?: Partial<RateLimitConfig>;
}

const ALL_SCOPES: string[] = [...SCOPES];
const READ_SCOPES = SCOPES.filter((scope) => scope.endsWith(':read'));

export const DEFAULT_CONFIG: SandboxConfig = {
	organizations: [
		{
			name: 'Acme Staffing',
			slug: 'acme',
			status: 'active',
			modules: ['members', 'customers'],
			keys: [
				{ key: 'wfm_live_acme_all', mode: 'live', scopes: ALL_SCOPES },
				{ key: 'wfm_test_acme_all', mode: 'test', scopes: ALL_SCOPES },
				{ key: 'wfm_live_acme_readonly', mode: 'live', scopes: READ_SCOPES },
				{ key: 'wfm_test_acme_readonly', mode: 'test', scopes: READ_SCOPES },
				{ key: 'wfm_live_acme_members', mode: 'live', scopes: ['members:read', 'members:write'] },
				{ key: 'wfm_live_acme_webhooks', mode: 'live', scopes: ['webhooks:read', 'webhooks:write'] },
				{ key: 'wfm_live_acme_noscope', mode: 'live', scopes: [] },
			],
		},
		{
			name: 'Globex Corporation',
			slug: 'globex',
			status: 'active',
			modules: ['members', 'customers'],
			keys: [
				{ key: 'wfm_live_globex_all', mode: 'live', scopes: ALL_SCOPES },
				{ key: 'wfm_test_globex_all', mode: 'test', scopes: ALL_SCOPES },
			],
		},
		{
			// Only the members module: customers, sites and their events answer 403 module_inactive.
			name: 'Initech',
			slug: 'initech',
			status: 'active',
			modules: ['members'],
			keys: [
				{ key: 'wfm_live_initech_all', mode: 'live', scopes: ALL_SCOPES },
				{ key: 'wfm_test_initech_all', mode: 'test', scopes: ALL_SCOPES },
			],
		},
	],
	webhooks: {
		allowInsecureUrls: false,
		retryDelaysSeconds: [60, 300, 1800, 3600, 7200, 21600, 43200],
		autoDisableAfter: 20,
		timeoutMs: 10000,
	},
	rateLimit: { requests: 600, perSeconds: 60 },
};

/** Missing sections (and missing keys inside `webhooks` / `rateLimit`) take the defaults. */
export function resolveConfig(partial: DeepPartialConfig = {}): SandboxConfig {
	return structuredClone({
		organizations: partial.organizations ?? DEFAULT_CONFIG.organizations,
		webhooks: { ...DEFAULT_CONFIG.webhooks, ...partial.webhooks },
		rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...partial.rateLimit },
	});
}
