/**
 * The README prints what `npm start` prints once the demo is ready, on the newest tested line with
 * the demo's usual ports: rendered here by the demo's own banner (demo/banner.ts, what start.ts
 * prints), so the two cannot drift. test/demo/demo.test.ts holds a real start's output against the
 * same README block.
 */
import { join } from 'node:path';

import { DEMO_READY_LINE, demoBanner, runtimeLine } from '../../demo/banner';
import { editorWords } from '../../demo/editor-words';
import { DEMO_PORTS, DEMO_TARGET } from '../../demo/state';
import { SIGNUP_FORM_PATH } from '../../demo/workflows';
import { buildWorld } from '../../sandbox/world';
import { DEFAULT_OWNER, N8N_LINES, NEWEST_N8N_LINE } from '../../harness/n8n';
import { readmeCodeBlock } from '../support/readme';
import { SANDBOX_CREDENTIAL_NAME } from '../../harness/world';

const BANNER_FIRST_LINE = 'Workforce Management demo is running';

test('the README shows the banner npm start prints on the newest tested line', () => {
	const world = buildWorld(
		`${DEMO_TARGET.organization}/${DEMO_TARGET.mode}`,
		new Date().toISOString(),
	);
	const n8nUrl = `http://127.0.0.1:${DEMO_PORTS.n8n}`;

	const printed = demoBanner({
		runtime: runtimeLine(NEWEST_N8N_LINE, NEWEST_N8N_LINE.node!, N8N_LINES),
		n8nUrl,
		login: DEFAULT_OWNER,
		signupFormUrl: `${n8nUrl}/form/${SIGNUP_FORM_PATH}`,
		sandboxBaseUrl: `http://127.0.0.1:${DEMO_PORTS.sandbox}/api/v1`,
		apiKey: `wfm_${DEMO_TARGET.mode}_${DEMO_TARGET.organization}_all`,
		credentialName: SANDBOX_CREDENTIAL_NAME,
		seeded: {
			members: world.members.length,
			customers: world.customers.length,
			sites: world.sites.length,
		},
		words: editorWords(NEWEST_N8N_LINE.n8n),
		n8nLog: join('.demo', 'n8n.log'),
	});

	expect(readmeCodeBlock(BANNER_FIRST_LINE)).toBe(printed);
	expect(printed.endsWith(DEMO_READY_LINE)).toBe(true);
});
