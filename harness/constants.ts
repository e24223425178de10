/** Names every test tier (and bench/) shares: the package, its node and credential types, the sandbox's keys. */
import { resolve } from 'node:path';

export const PACKAGE_ROOT = resolve(__dirname, '..');

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const PACKAGE_NAME = (require(resolve(PACKAGE_ROOT, 'package.json')) as { name: string })
	.name;

/** Node types as n8n names them for an installed community package: `<package>.<node name>`. */
export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.workforceManagement`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.workforceManagementTrigger`;
/** The action node's AI-tool variant, which n8n derives from `usableAsTool`. */
export const ACTION_TOOL_NODE_TYPE = `${ACTION_NODE_TYPE}Tool`;
/**
 * The action node's versions: 1 is what saved workflows use (Output Raw by default), 2 what the
 * editor adds today (Output Simplified by default).
 */
export const ACTION_NODE_VERSION = { saved: 1, newest: 2 } as const;

export const CREDENTIAL_TYPE = 'workforceManagementApi';

/** API keys of the sandbox's default configuration (sandbox/README.md). */
export const LIVE_KEY = 'wfm_live_acme_all';
export const TEST_KEY = 'wfm_test_acme_all';
export const READONLY_KEY = 'wfm_live_acme_readonly';
export const MEMBERS_ONLY_KEY = 'wfm_live_acme_members';
export const NO_SCOPE_KEY = 'wfm_live_acme_noscope';
export const GLOBEX_KEY = 'wfm_live_globex_all';
