/**
 * Pictures of the nodes in the real n8n editor, taken with Debian's Chromium (never a downloaded
 * browser): the canvas with our trigger and action node, the action node's panel, the trigger's
 * event picker filled from the sandbox's event catalog, a Get Many's Simplified output table, the
 * node creator finding the package by "timesheet", and the credential dialog refusing a wrong key.
 *
 * `npx tsx demo/pictures/capture.ts [folder]` starts the sandbox and n8n and writes the PNGs to
 * docs/images/ (or `folder`).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

import { EXAMPLE_ADDRESSES, setAddress } from '../../harness/addresses';
import { PACKAGE_ROOT } from '../../harness/constants';
import { chainWorkflow, memberParameters, workforceNode } from '../../harness/workflows';
import { E2eWorld } from '../../harness/world';
import { verifyNewMembersWorkflow } from '../workflows';
import {
	canvasNode,
	openEditorPage,
	openFailingCredential,
	openNewWorkflow,
	openNodePanel,
	searchNodeCreator,
} from './editor';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const PICTURES_FOLDER = join(PACKAGE_ROOT, 'docs', 'images');
export const PICTURE_FILES = {
	canvas: 'workflow-canvas.png',
	actionPanel: 'action-node-panel.png',
	triggerEventPicker: 'trigger-event-picker.png',
	simplifiedTable: 'get-many-simplified.png',
	nodeCreatorSearch: 'node-creator-timesheet.png',
	credentialDialog: 'credential-dialog-wrong-key.png',
} as const;

const TRIGGER_NAME = 'On member created';
const ACTION_NAME = 'Verify member';
const GET_MANY_NAME = 'Get many members';

/** Members for the output table (invented examples), each with an address on file. */
const TABLE_MEMBERS = [
	{
		business_name: 'Riverside Care Services',
		email: 'dana@riverside.example',
		phone: '+1 555 0100',
	},
	{
		business_name: 'Northgate Nursing',
		email: 'team@northgate.example',
		phone: '+44 113 496 0000',
	},
	{ business_name: 'Canal Home Help', email: 'hallo@canal.example', phone: '+31 20 555 0101' },
];
const VIEWPORT = { width: 1280, height: 720 };
const TABLE_VIEWPORT = { width: 1920, height: 1080 };
/** Two nodes look lost on a fitted canvas: zoom in a little. */
const CANVAS_ZOOM_STEPS = 2;
const ZOOM_ANIMATION_MS = 600;
/** The picker is filled once it shows at least this many event types. */
const MIN_PICKER_OPTIONS = 5;

export async function launchChromium(): Promise<Browser> {
	if (!existsSync(CHROMIUM_PATH)) {
		throw new Error(
			`No Chromium at ${CHROMIUM_PATH}. Install Debian's package: apt-get update && apt-get install -y chromium`,
		);
	}
	return await chromium.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

async function closeNodePanel(page: Page): Promise<void> {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="ndv"]').first().waitFor({ state: 'hidden' });
}

/** A manual start and a version 2 Get Many of members (Simplified output by default). */
async function createGetManyWorkflow(world: E2eWorld): Promise<{ id: string }> {
	for (const [index, member] of TABLE_MEMBERS.entries()) {
		const created = await world.control.api<{ id: string }>(world.apiKey, 'POST', '/members', {
			business_name: member.business_name,
			capacity: index + 2,
			contact: { email: member.email, phone: member.phone },
		});
		setAddress(world.sandbox, world.apiKey, 'members', created.id, EXAMPLE_ADDRESSES[index]);
	}
	return await world.client.createWorkflow(
		chainWorkflow('Members, simplified', [
			{
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				parameters: {},
			},
			{
				...workforceNode(GET_MANY_NAME, world.credential, {
					...memberParameters.getAll(),
					returnAll: false,
				}),
				typeVersion: 2,
			},
		]),
	);
}

/**
 * Runs the Get Many in its panel and pictures the output table. Nine columns need more room than
 * the other pictures' 1280 px: a wider page at a lower scale gives the same 2560 × 1440 picture.
 */
async function captureSimplifiedTable(
	browser: Browser,
	world: E2eWorld,
	picture: string,
): Promise<void> {
	const getMany = await createGetManyWorkflow(world);
	const page = await openEditorPage(
		browser,
		world,
		TABLE_VIEWPORT,
		(VIEWPORT.width * 2) / TABLE_VIEWPORT.width,
	);
	await page.goto(`${world.n8n.url}/workflow/${getMany.id}`);
	await canvasNode(page, GET_MANY_NAME).waitFor({ state: 'visible' });
	await openNodePanel(page, GET_MANY_NAME);
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	await page
		.locator('[data-test-id="output-panel"]')
		.getByText(TABLE_MEMBERS[0].business_name)
		.first()
		.waitFor({ state: 'visible' });
	// room for the table: the parameters panel dragged to the left, the success toast closed
	const handle = await page.locator('[data-test-id="panel-drag-button"]').boundingBox();
	if (handle) {
		const y = handle.y + handle.height / 2;
		await page.mouse.move(handle.x + handle.width / 2, y);
		await page.mouse.down();
		await page.mouse.move(0, y, { steps: 10 });
		await page.mouse.up();
	}
	await page
		.locator('.el-notification__closeBtn')
		.click({ timeout: 5_000 })
		.catch(() => {});
	await page.mouse.move(TABLE_VIEWPORT.width / 2, 20);
	await page.waitForTimeout(ZOOM_ANIMATION_MS);
	await page.screenshot({ path: picture });
}

/** Logs the browser in as the owner, opens a workflow with both nodes and takes the pictures. */
export async function capturePictures(world: E2eWorld, outputFolder: string): Promise<string[]> {
	mkdirSync(outputFolder, { recursive: true });
	const workflow = await world.client.createWorkflow(verifyNewMembersWorkflow(world.credential));

	const browser = await launchChromium();
	try {
		const page = await openEditorPage(browser, world, VIEWPORT);

		await page.goto(`${world.n8n.url}/workflow/${workflow.id}`);
		await canvasNode(page, TRIGGER_NAME).waitFor({ state: 'visible' });
		await canvasNode(page, ACTION_NAME).waitFor({ state: 'visible' });
		await page.waitForLoadState('networkidle');
		for (let step = 0; step < CANVAS_ZOOM_STEPS; step++) {
			await page.locator('[data-test-id="zoom-in-button"]').click();
		}
		// no hover or focus ring left on the zoom button
		await page.mouse.move(VIEWPORT.width / 2, 150);
		await page.evaluate('document.activeElement && document.activeElement.blur()');
		await page.waitForTimeout(ZOOM_ANIMATION_MS);
		const canvasPicture = join(outputFolder, PICTURE_FILES.canvas);
		await page.screenshot({ path: canvasPicture });

		await openNodePanel(page, ACTION_NAME);
		await page.locator('[data-test-id="parameter-input-resource"]').waitFor({ state: 'visible' });
		await page.locator('[data-test-id="parameter-input-operation"]').waitFor({ state: 'visible' });
		await page.waitForLoadState('networkidle');
		const actionPicture = join(outputFolder, PICTURE_FILES.actionPanel);
		await page.screenshot({ path: actionPicture });
		await closeNodePanel(page);

		await openNodePanel(page, TRIGGER_NAME);
		// the options come from the sandbox's event catalog through the node's loadOptions method;
		// only the open list's options are visible (n8n 2.41 keeps the credential list's, hidden)
		const pickerOptions = page.locator('.el-select-dropdown__item:visible');
		const picker = page.locator('[data-test-id="parameter-input-events"]');
		// beside the chosen events' tags; n8n 2.41 may drop a click while the panel settles
		for (let attempt = 1; attempt <= 3; attempt++) {
			const box = await picker.boundingBox();
			await picker.click(box ? { position: { x: box.width - 40, y: box.height / 2 } } : {});
			const opened = await pickerOptions
				.nth(MIN_PICKER_OPTIONS - 1)
				.waitFor({ state: 'visible', timeout: 15_000 })
				.then(() => true)
				.catch(() => false);
			if (opened) break;
		}
		await pickerOptions.nth(MIN_PICKER_OPTIONS - 1).waitFor({ state: 'visible' });
		const pickerPicture = join(outputFolder, PICTURE_FILES.triggerEventPicker);
		await page.screenshot({ path: pickerPicture });

		const tablePicture = join(outputFolder, PICTURE_FILES.simplifiedTable);
		await captureSimplifiedTable(browser, world, tablePicture);

		const firstContact = await openEditorPage(browser, world, VIEWPORT);
		await openNewWorkflow(firstContact, world);
		await searchNodeCreator(firstContact, 'timesheet');
		const searchPicture = join(outputFolder, PICTURE_FILES.nodeCreatorSearch);
		await firstContact.screenshot({ path: searchPicture });

		await openFailingCredential(firstContact, world, {
			apiKey: 'wfm_live_acme_wrong',
			baseUrl: world.sandbox.baseUrl,
		});
		const credentialPicture = join(outputFolder, PICTURE_FILES.credentialDialog);
		await firstContact.screenshot({ path: credentialPicture });

		return [
			canvasPicture,
			actionPicture,
			pickerPicture,
			tablePicture,
			searchPicture,
			credentialPicture,
		];
	} catch (error) {
		// what the browser showed when it failed, kept where CI keeps its results
		const [page] = browser.contexts().flatMap((context) => context.pages());
		const failurePicture = join(PACKAGE_ROOT, 'test-results', 'pictures-failure.png');
		const saved = await page
			?.screenshot({ path: failurePicture })
			.then(() => true)
			.catch(() => false);
		if (saved) (error as Error).message += `\nThe browser's view at the failure: ${failurePicture}`;
		throw error;
	} finally {
		await browser.close();
	}
}

export interface PictureStats {
	width: number;
	height: number;
	/** Distinct colours among sampled pixels. */
	distinctColors: number;
	/** Share of sampled pixels that have the most common colour (1 = a flat picture). */
	dominantColorShare: number;
}

interface BrowserImage {
	src: string;
	naturalWidth: number;
	naturalHeight: number;
	decode(): Promise<void>;
}

interface BrowserCanvas {
	width: number;
	height: number;
	getContext(kind: '2d'): {
		drawImage(image: BrowserImage, x: number, y: number): void;
		getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
	};
}

/** The few DOM globals measurePicture uses inside the page. */
interface BrowserGlobals {
	Image: new () => BrowserImage;
	document: { createElement(tag: 'canvas'): BrowserCanvas };
}

/** Decodes a PNG in the browser and samples its pixels: enough to tell a picture from a blank one. */
export async function measurePicture(browser: Browser, file: string): Promise<PictureStats> {
	const page = await browser.newPage();
	try {
		const dataUrl = `data:image/png;base64,${readFileSync(file).toString('base64')}`;
		return await page.evaluate(async (source) => {
			// runs in the page, where the DOM exists (this file is compiled without DOM types)
			const page = globalThis as unknown as BrowserGlobals;
			const image = new page.Image();
			image.src = source;
			await image.decode();
			const canvas = page.document.createElement('canvas');
			canvas.width = image.naturalWidth;
			canvas.height = image.naturalHeight;
			const context = canvas.getContext('2d');
			context.drawImage(image, 0, 0);
			const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
			const counts = new Map<number, number>();
			let samples = 0;
			for (let offset = 0; offset < data.length; offset += 4 * 7) {
				const color = (data[offset] << 16) | (data[offset + 1] << 8) | data[offset + 2];
				counts.set(color, (counts.get(color) ?? 0) + 1);
				samples++;
			}
			return {
				width: canvas.width,
				height: canvas.height,
				distinctColors: counts.size,
				dominantColorShare: Math.max(...counts.values()) / samples,
			};
		}, dataUrl);
	} finally {
		await page.close();
	}
}

if (require.main === module) {
	const outputFolder = process.argv[2] ?? PICTURES_FOLDER;
	(async () => {
		console.log('Starting the sandbox and n8n...');
		const world = await E2eWorld.start();
		try {
			const files = await capturePictures(world, outputFolder);
			console.log(`Wrote:\n${files.map((file) => `  ${file}`).join('\n')}`);
		} finally {
			await world.stop();
		}
	})().catch((error: Error) => {
		console.error(error.message);
		process.exit(1);
	});
}
