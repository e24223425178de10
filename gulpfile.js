// The last step of `npm run build`, after `n8n-node build`, which compiles and copies every PNG and
// SVG of the repository into dist/ (README pictures and benchmark plots included) without checking
// anything against the node descriptions. Two tasks make dist/ exactly what we publish:
// - pruneDist removes what is not part of the package (everything but nodes/, credentials/ and
//   package.json), so the tarball carries no pictures or build info;
// - checkDist loads every node and credential that package.json's `n8n` section declares and fails
//   the build when one is missing, or when an icon or codex file it points at was not copied.
const fs = require('node:fs');
const path = require('node:path');
const { series } = require('gulp');

const packageJson = require('./package.json');

const distDirectory = path.join(__dirname, 'dist');
const packageEntries = new Set(['nodes', 'credentials', 'package.json']);

function iconPaths(description) {
	const icons = typeof description.icon === 'string' ? [description.icon] : Object.values(description.icon ?? {});
	return icons.filter((icon) => icon.startsWith('file:')).map((icon) => icon.slice('file:'.length));
}

function loadDeclared(relativePath) {
	const absolutePath = path.resolve(__dirname, relativePath);
	if (!fs.existsSync(absolutePath)) throw new Error(`${relativePath} is declared in package.json but was not built`);
	const exports = require(absolutePath);
	const className = path.basename(relativePath).split('.')[0];
	if (typeof exports[className] !== 'function') throw new Error(`${relativePath} does not export class ${className}`);
	return { absolutePath, instance: new exports[className]() };
}

function checkFiles(owner, directory, files) {
	for (const file of files) {
		if (!fs.existsSync(path.join(directory, file))) throw new Error(`${owner}: ${file} is missing from dist`);
	}
}

function checkDist(done) {
	for (const credentialPath of packageJson.n8n.credentials) {
		const { absolutePath, instance } = loadDeclared(credentialPath);
		checkFiles(instance.name, path.dirname(absolutePath), iconPaths(instance));
	}
	for (const nodePath of packageJson.n8n.nodes) {
		const { absolutePath, instance } = loadDeclared(nodePath);
		const { description } = instance;
		const codexFile = path.basename(absolutePath).replace(/\.js$/, '.json');
		checkFiles(description.name, path.dirname(absolutePath), [...iconPaths(description), codexFile]);
	}
	done();
}

function pruneDist(done) {
	for (const entry of fs.readdirSync(distDirectory)) {
		if (!packageEntries.has(entry)) fs.rmSync(path.join(distDirectory, entry), { recursive: true });
	}
	done();
}

exports.pruneDist = pruneDist;
exports.checkDist = checkDist;
exports.default = series(pruneDist, checkDist);
