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

/** The same scopes in both modes: keys `wfm_live_<slug>_<name>` and `wfm_test_<slug>_<name>`. */
function keysInBothModes(slug: string, name: string, scopes: string[]): ApiKeyConfig[] {
	return (['live', 'test'] as const).map((mode) => ({
		key: `wfm_${mode}_${slug}_${name}`,
		mode,
		scopes,
	}));
}

export const DEFAULT_CONFIG: SandboxConfig = {
	organizations: [
		{
			name: 'Acme Staffing',
			slug: 'acme',
			status: 'active',
			modules: ['members', 'customers'],
			keys: [
				...keysInBothModes('acme', 'all', ALL_SCOPES),
				...keysInBothModes('acme', 'readonly', READ_SCOPES),
				{ key: 'wfm_live_acme_members', mode: 'live', scopes: ['members:read', 'members:write'] },
				{
					key: 'wfm_live_acme_webhooks',
					mode: 'live',
					scopes: ['webhooks:read', 'webhooks:write'],
				},
				{ key: 'wfm_live_acme_noscope', mode: 'live', scopes: [] },
			],
		},
		{
			name: 'Globex Corporation',
			slug: 'globex',
			status: 'active',
			modules: ['members', 'customers'],
			keys: keysInBothModes('globex', 'all', ALL_SCOPES),
		},
		{
			// Only the members module: customers, sites and their events answer 403 module_inactive.
			name: 'Initech',
			slug: 'initech',
			status: 'active',
			modules: ['members'],
			keys: keysInBothModes('initech', 'all', ALL_SCOPES),
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

const ORGANIZATION_STATUSES = ['draft', 'demo', 'active', 'suspended', 'cancelled'];

/** Names every problem of a config (a hand-written file, typically) before the sandbox starts. */
function configProblems(config: SandboxConfig): string[] {
	const problems: string[] = [];
	const isPositive = (value: unknown) => typeof value === 'number' && value > 0;
	if (!Array.isArray(config.organizations)) return ['organizations must be an array'];
	const slugs = new Set<string>();
	const keys = new Set<string>();
	config.organizations.forEach((organization, index) => {
		const at = `organizations[${index}]`;
		if (typeof organization?.name !== 'string' || !organization.name)
			problems.push(`${at}.name must be a non-empty string`);
		if (typeof organization?.slug !== 'string' || !organization.slug)
			problems.push(`${at}.slug must be a non-empty string`);
		else if (slugs.has(organization.slug))
			problems.push(`${at}.slug ${organization.slug} is used twice`);
		else slugs.add(organization.slug);
		if (!ORGANIZATION_STATUSES.includes(organization?.status)) {
			problems.push(`${at}.status must be one of ${ORGANIZATION_STATUSES.join(', ')}`);
		}
		if (!Array.isArray(organization?.modules))
			problems.push(`${at}.modules must be an array of module names`);
		if (!Array.isArray(organization?.keys)) {
			problems.push(`${at}.keys must be an array`);
			return;
		}
		organization.keys.forEach((key, keyIndex) => {
			const keyAt = `${at}.keys[${keyIndex}]`;
			if (typeof key?.key !== 'string' || !key.key)
				problems.push(`${keyAt}.key must be a non-empty string`);
			else if (keys.has(key.key)) problems.push(`${keyAt}.key ${key.key} is used twice`);
			else keys.add(key.key);
			if (key?.mode !== 'live' && key?.mode !== 'test')
				problems.push(`${keyAt}.mode must be live or test`);
			const unknownScopes = Array.isArray(key?.scopes)
				? key.scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope))
				: null;
			if (unknownScopes === null) problems.push(`${keyAt}.scopes must be an array`);
			else if (unknownScopes.length > 0)
				problems.push(`${keyAt}.scopes has unknown scopes: ${unknownScopes.join(', ')}`);
		});
	});
	const { webhooks, rateLimit } = config;
	if (typeof webhooks.allowInsecureUrls !== 'boolean')
		problems.push('webhooks.allowInsecureUrls must be a boolean');
	if (
		!Array.isArray(webhooks.retryDelaysSeconds) ||
		!webhooks.retryDelaysSeconds.every((delay) => typeof delay === 'number' && delay >= 0)
	) {
		problems.push('webhooks.retryDelaysSeconds must be an array of seconds (numbers ≥ 0)');
	}
	if (!isPositive(webhooks.autoDisableAfter))
		problems.push('webhooks.autoDisableAfter must be a number > 0');
	if (!isPositive(webhooks.timeoutMs)) problems.push('webhooks.timeoutMs must be a number > 0');
	if (!isPositive(rateLimit.requests)) problems.push('rateLimit.requests must be a number > 0');
	if (!isPositive(rateLimit.perSeconds)) problems.push('rateLimit.perSeconds must be a number > 0');
	return problems;
}

/**
 * Missing sections (and missing keys inside `webhooks` / `rateLimit`) take the defaults;
 * anything malformed throws, naming each problem.
 */
export function resolveConfig(partial: DeepPartialConfig = {}): SandboxConfig {
	const config: SandboxConfig = structuredClone({
		organizations: partial.organizations ?? DEFAULT_CONFIG.organizations,
		webhooks: { ...DEFAULT_CONFIG.webhooks, ...partial.webhooks },
		rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...partial.rateLimit },
	});
	const problems = configProblems(config);
	if (problems.length > 0) throw new Error(`Invalid sandbox config:\n- ${problems.join('\n- ')}`);
	return config;
}
