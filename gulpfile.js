// The last step of `npm run build`, after `n8n-node build`: a release gate on what n8n will load.
// It loads every node and credential that package.json's `n8n` section declares from dist/ and
// fails the build when one is missing, or when an icon or codex file it points at was not copied.
// `n8n-node build` compiles and copies assets but never checks them against the description.
const fs = require('node:fs');
const path = require('node:path');

const packageJson = require('./package.json');

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

exports.checkDist = checkDist;
exports.default = checkDist;
