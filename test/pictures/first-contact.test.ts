/**
 * A new user's first minutes in a real n8n 2.8.4 editor, in Debian's Chromium: every event family
 * finds the package in the node creator, and the credential dialog says what is wrong with a key
 * in the package's own words.
 */
import type { Browser, Page } from 'playwright-core';

import { SPEC_EVENT_TYPES } from '../support/spec-event-types';
import { E2eWorld } from '../../harness/world';
import { launchChromium } from '../../demo/pictures/capture';
import {
	nodeCreatorEntry,
	openEditorPage,
	openFailingCredential,
	openNewWorkflow,
	searchNodeCreator,
} from '../../demo/pictures/editor';

/** The entry n8n lists for both nodes (the trigger is merged into the action node's entry). */
const ENTRY = 'Workforce Management';

/** Event families as a user types them: `customer_location.*` is a site, `travel_expense.*` two words. */
const FAMILIES = [
	...new Set(
		SPEC_EVENT_TYPES.map((type) =>
			type.split('.')[0].replace('customer_location', 'site').replace(/_/g, ' '),
		),
	),
];

let world: E2eWorld;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	world = await E2eWorld.start();
	browser = await launchChromium();
	page = await openEditorPage(browser, world);
	await openNewWorkflow(page, world);
}, 420_000);

afterAll(async () => {
	await browser?.close();
	await world?.stop();
}, 60_000);

describe('the node creator', () => {
	test('typing "timesheet" finds the package, and its entry offers the trigger', async () => {
		const found = await searchNodeCreator(page, 'timesheet');

		expect(found).toContain(ENTRY);
		await nodeCreatorEntry(page, ENTRY).click();
		await page
			.locator('[data-test-id="node-creator"]')
			.getByText('On new Workforce Management event')
			.waitFor({ state: 'visible' });
	}, 180_000);

	test.each(FAMILIES)(
		'typing "%s" finds the package',
		async (family) => {
			expect(await searchNodeCreator(page, family)).toContain(ENTRY);
		},
		120_000,
	);
});

describe('the credential dialog', () => {
	test('a wrong API key shows the package’s message, naming the host', async () => {
		const host = new URL(world.sandbox.baseUrl).host;

		const dialog = await openFailingCredential(page, world, {
			apiKey: 'wfm_live_acme_wrong',
			baseUrl: world.sandbox.baseUrl,
		});

		await dialog
			.getByText(`The Workforce Management API at ${host} rejected this API key.`, { exact: false })
			.waitFor({ state: 'visible' });
		expect(await dialog.innerText()).not.toMatch(
			/Authorization failed - please check your credentials/,
		);
	}, 180_000);
});
