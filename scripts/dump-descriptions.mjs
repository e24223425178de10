// Prints the description of every built node and credential listed in package.json, as JSON:
// what n8n reads from the package. Comparing two builds' output shows whether a change altered
// anything a user or a saved workflow can see.
//   node scripts/dump-descriptions.mjs > before.json   (after npm run build)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
const { n8n } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const dump = {};
for (const file of [...n8n.nodes, ...n8n.credentials]) {
	for (const [name, Exported] of Object.entries(require(join(root, file)))) {
		const instance = new Exported();
		// A credential's fields sit on the instance; a node's on its description.
		dump[`${file}#${name}`] = instance.description ?? { ...instance };
	}
}
process.stdout.write(`${JSON.stringify(dump, null, '\t')}\n`);
