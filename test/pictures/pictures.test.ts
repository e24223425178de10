/**
 * The README's pictures can be produced: Debian's Chromium logs in to a real n8n with the package
 * installed and captures the canvas, the action node's panel, the trigger's event picker, a Get
 * Many's Simplified output table, the node creator's search and the credential dialog's failure.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { E2eWorld } from '../../harness/world';
import { capturePictures, launchChromium, measurePicture } from '../../demo/pictures/capture';

let world: E2eWorld;
const folder = mkdtempSync(join(tmpdir(), 'wfm-pictures-'));

beforeAll(async () => {
	world = await E2eWorld.start();
}, 240_000);

afterAll(async () => {
	await world?.stop();
	rmSync(folder, { recursive: true, force: true });
}, 60_000);

test('the six pictures are produced and are not blank', async () => {
	const files = await capturePictures(world, folder);

	expect(files.map((file) => file.slice(folder.length + 1))).toEqual([
		'workflow-canvas.png',
		'action-node-panel.png',
		'trigger-event-picker.png',
		'get-many-simplified.png',
		'node-creator-timesheet.png',
		'credential-dialog-wrong-key.png',
	]);
	const browser = await launchChromium();
	try {
		for (const file of files) {
			expect(statSync(file).size).toBeGreaterThan(10_000);
			const stats = await measurePicture(browser, file);
			expect(stats).toEqual(expect.objectContaining({ width: 2560, height: 1440 }));
			// a blank or single-colour page has a handful of colours and one that covers almost everything
			expect(stats.distinctColors).toBeGreaterThan(50);
			expect(stats.dominantColorShare).toBeLessThan(0.95);
		}
	} finally {
		await browser.close();
	}
}, 300_000);
