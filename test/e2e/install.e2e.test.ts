/**
 * The README's install step for today (the package is not on the npm registry yet), run as a user
 * runs it: build, `npm pack` in the checkout, `npm install` of the tarball in the nodes folder of
 * n8n's user folder; after a start, n8n lists both nodes. The commands are read from the README,
 * so what it says is what this runs. They run in a copy of what `npm pack` reads from the checkout:
 * `npm test` runs this suite on both n8n lines at once, and both tarballs would have one name.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import {
	ACTION_NODE_TYPE,
	PACKAGE_NAME,
	PACKAGE_ROOT,
	TRIGGER_NODE_TYPE,
} from '../../harness/constants';
import { ensureBuilt, N8nInstance, n8nBinary, setUpOwner } from '../../harness/n8n';
import { readmeCodeBlock } from '../support/readme';

const execFileAsync = promisify(execFile);
/** The README block's first line; the rest packs and installs. */
const BUILD = 'npm install && npm run build';

/** What `npm pack` reads from a checkout: the manifest, its settings, the README and the build. */
const PACKED_FROM_CHECKOUT = /^(package\.json|\.npmrc|dist|README.*|LICEN[CS]E.*)$/i;

let userFolder: string;
let checkout: string;
let n8n: N8nInstance | undefined;

beforeAll(() => {
	n8nBinary();
	userFolder = mkdtempSync(join(tmpdir(), 'wfm-install-'));
	checkout = mkdtempSync(join(tmpdir(), 'wfm-checkout-'));
});

afterAll(async () => {
	await n8n?.stop();
	rmSync(userFolder, { recursive: true, force: true });
	rmSync(checkout, { recursive: true, force: true });
}, 60_000);

test("the README's pack-and-install commands put both nodes into n8n's node picker", async () => {
	const [build, ...install] = readmeCodeBlock(BUILD).split('\n');
	expect(build).toBe(BUILD);
	// `npm install` would reinstall this checkout's dependencies, which the test already runs on
	await ensureBuilt();
	const script = [
		...install.map((line) => line.replaceAll('~/.n8n', join(userFolder, '.n8n'))),
		'echo "$TARBALL"',
	].join('\n');
	expect(script).toContain(`cd ${join(userFolder, '.n8n', 'nodes')}`);

	for (const entry of readdirSync(PACKAGE_ROOT).filter((name) => PACKED_FROM_CHECKOUT.test(name))) {
		cpSync(join(PACKAGE_ROOT, entry), join(checkout, entry), { recursive: true });
	}
	const { stdout } = await execFileAsync('bash', ['-euo', 'pipefail', '-c', script], {
		cwd: checkout,
		maxBuffer: 32 * 1024 * 1024,
	});
	const tarball = stdout.trim().split('\n').pop()!;
	expect(tarball).toMatch(new RegExp(`^${checkout}/${PACKAGE_NAME}-\\d+\\.\\d+\\.\\d+\\.tgz$`));

	n8n = await N8nInstance.start({ userFolder });
	const { client } = await setUpOwner(n8n);
	const session = client.sessionCookie!;
	const response = await fetch(`${n8n.url}/types/nodes.json`, {
		headers: { cookie: `${session.name}=${session.value}` },
	});
	expect(response.status).toBe(200);
	const types = ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
	expect(types).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));
}, 300_000);
