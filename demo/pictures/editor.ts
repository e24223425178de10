/**
 * What a new user does first in n8n's editor (2.8.4 and 2.41.1), driven in Debian's Chromium: search the node
 * creator, and open a credential whose test fails; and a stored workflow opened, a node's panel
 * opened and its output table read. Used by the browser tests and by capture.ts.
 */
import type { Browser, Locator, Page } from 'playwright-core';

import { CREDENTIAL_TYPE } from '../../harness/constants';
import { eventually } from '../../harness/poll';
import type { E2eWorld } from '../../harness/world';

/** Generous: the editor loads slowly on a busy 2-core machine. */
export const UI_TIMEOUT_MS = 90_000;

const PLUS_BUTTON = '[data-test-id="node-creator-plus-button"]';
const NODE_CREATOR = '[data-test-id="node-creator"]';

/** A page of the editor, logged in as the owner, in a context of its own. */
export async function openEditorPage(
	browser: Browser,
	world: E2eWorld,
	viewport = { width: 1280, height: 720 },
	deviceScaleFactor = 2,
): Promise<Page> {
	const session = world.client.sessionCookie;
	if (!session) throw new Error('The n8n client has no session: set up or log in the owner first');
	const context = await browser.newContext({ viewport, deviceScaleFactor });
	await context.addCookies([{ ...session, url: world.n8n.url }]);
	const page = await context.newPage();
	page.setDefaultTimeout(UI_TIMEOUT_MS);
	return page;
}

/** Opens a new, empty workflow in the editor, as a user starting one does. */
export async function openNewWorkflow(page: Page, world: E2eWorld): Promise<void> {
	await page.goto(`${world.n8n.url}/workflow/new`);
	await page.locator(PLUS_BUTTON).waitFor({ state: 'visible' });
}

/**
 * Types `text` in the node creator of the new workflow open in `page` (openNewWorkflow), as a user
 * adding the first step does, and answers the names of the entries found. A node creator left open
 * by an earlier search is closed first, so every search starts from the unfiltered list, as a
 * user's next try does: one page serves many searches.
 */
export async function searchNodeCreator(page: Page, text: string): Promise<string[]> {
	await closeNodeCreator(page);
	await page.locator(PLUS_BUTTON).click();
	const names = page.locator(`${NODE_CREATOR} [data-test-id="node-creator-item-name"]`);
	const noResults = page.locator('[data-test-id="node-creator-no-results"]');
	// n8n 2.41 lists its default triggers at once and filters them a moment after typing
	await names.first().waitFor({ state: 'visible' });
	const unfiltered = await names.allInnerTexts();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill(text);
	const found = await eventually(
		`the node creator filtering its list for "${text}"`,
		async () => ({ shown: await names.allInnerTexts(), none: await noResults.isVisible() }),
		({ shown, none }) => none || shown.join('\n') !== unfiltered.join('\n'),
		{ timeoutMs: UI_TIMEOUT_MS, describe: () => 'the unfiltered list' },
	);
	return found.shown.map((name) => name.trim());
}

/**
 * Closes the node creator if it is open: Escape leaves an entry's own list for the search, and
 * the search for the canvas. Each press waits until the creator has left the view it was in.
 */
async function closeNodeCreator(page: Page): Promise<void> {
	// read in one step: a locator's read would wait for a creator that has just closed
	const view = async () =>
		await page.evaluate((selector) => {
			const creator = (globalThis as unknown as BrowserDocument).document.querySelector(selector);
			return creator?.checkVisibility() ? creator.innerText : undefined;
		}, NODE_CREATOR);
	for (let before = await view(), presses = 0; before !== undefined; presses++) {
		if (presses === 3) throw new Error('The node creator did not close after 3 presses of Escape');
		await page.keyboard.press('Escape');
		before = await eventually(
			'the node creator leaving its view on Escape',
			view,
			(after) => after !== before,
			{ timeoutMs: UI_TIMEOUT_MS, describe: () => 'the same view' },
		);
	}
}

/** The little of the DOM closeNodeCreator reads in the page (this file is compiled without DOM types). */
interface BrowserDocument {
	document: {
		querySelector(selector: string): { checkVisibility(): boolean; innerText: string } | null;
	};
}

/** The entry named `name` in the node creator's results. */
export function nodeCreatorEntry(page: Page, name: string): Locator {
	return page
		.locator(`${NODE_CREATOR} [data-test-id="node-creator-item-name"]`)
		.getByText(name, { exact: true });
}

/**
 * Saves a credential with `data` and opens it in the credential dialog, which tests it; answers
 * the dialog once the test's failure banner shows, its details unfolded.
 */
export async function openFailingCredential(
	page: Page,
	world: E2eWorld,
	data: { apiKey: string; baseUrl: string },
): Promise<Locator> {
	const credential = await world.client.createCredential({
		name: 'Workforce Management (wrong key)',
		type: CREDENTIAL_TYPE,
		data,
	});
	await page.goto(`${world.n8n.url}/home/credentials/${credential.id}`);
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	await dialog.getByText(/Couldn.t connect with these settings/).waitFor({ state: 'visible' });
	const moreDetails = dialog.getByText('More details');
	if (await moreDetails.isVisible()) await moreDetails.click();
	return dialog;
}

/** The node named `name` on the canvas of the open workflow. */
export function canvasNode(page: Page, name: string): Locator {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/** Opens a stored workflow in the editor, once its node `nodeName` is on the canvas. */
export async function openWorkflow(
	page: Page,
	world: E2eWorld,
	workflowId: string,
	nodeName: string,
): Promise<void> {
	await page.goto(`${world.n8n.url}/workflow/${workflowId}`);
	await canvasNode(page, nodeName).waitFor({ state: 'visible' });
}

/** Opens the panel of the canvas node `name` (a double click) and answers the panel. */
export async function openNodePanel(page: Page, name: string): Promise<Locator> {
	await canvasNode(page, name).dblclick();
	const panel = page.locator('[data-test-id="ndv"]').first();
	await panel.waitFor({ state: 'visible' });
	return panel;
}

/**
 * What the open node panel's output shows in its Table view: one record per row, each cell's
 * text under its column's header (a nested object as the table prints it). Waits for the table.
 */
export async function outputTableRows(page: Page): Promise<Array<Record<string, string>>> {
	const output = page.locator('[data-test-id="output-panel"]');
	await output.locator('[data-test-id="radio-button-table"]').click();
	const table = output.locator('table').first();
	await table.waitFor({ state: 'visible' });
	const headers = (await table.locator('thead th').allInnerTexts()).map((text) => text.trim());
	const rows: Array<Record<string, string>> = [];
	for (const row of await table.locator('tbody > tr').all()) {
		const record: Record<string, string> = {};
		for (const cell of await row.locator('td[data-col]').all()) {
			const column = Number(await cell.getAttribute('data-col'));
			record[headers[column] ?? `column ${column}`] = (await cell.innerText()).trim();
		}
		rows.push(record);
	}
	return rows;
}
