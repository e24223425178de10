import type { IExecuteFunctions } from 'n8n-workflow';

import { describeValue, fieldError } from '../common';

/** `https://host` and what follows, as the API takes it: no user info, no spaces, no backslash. */
const HTTPS_URL_SHAPE = /^https:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/;

const USER_INFO = /^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i;

/**
 * A webhook URL written as the API takes it, `https://host/path`. Surrounding spaces and an
 * upper-case scheme are normalised; a missing slash, a user name or password and inner spaces are
 * refused, as `new URL()` would quietly rewrite them into another URL.
 */
export function assertHttpsUrl(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string {
	const refuse = (problem: string) => fieldError(this, itemIndex, field, problem);
	if (typeof value !== 'string') {
		throw refuse(`must be an https:// URL, but is ${describeValue(value)}`);
	}
	const trimmed = value.trim();
	// The value as messages show it: never with the password it may hold.
	const shown = describeValue(trimmed.replace(USER_INFO, '$1***@'));
	const url = trimmed.replace(/^https:/i, 'https:');
	if (/\s/.test(url)) throw refuse(`must not contain spaces, but is ${shown}`);
	if (!url.startsWith('https:')) throw refuse(`must be an https:// URL, but is ${shown}`);
	if (!url.startsWith('https://')) {
		throw refuse(`must start with https:// (two slashes), but is ${shown}`);
	}
	if (USER_INFO.test(url)) {
		throw refuse('must not contain a user name or password (user:password@)');
	}
	if (!HTTPS_URL_SHAPE.test(url))
		throw refuse(`must be written as https://host/path, but is ${shown}`);
	return url;
}

export function assertEventList(
	this: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string[] {
	if (typeof value !== 'string' && !Array.isArray(value) && describeValue(value) !== 'empty') {
		throw fieldError(
			this,
			itemIndex,
			field,
			`must be a list of event names, but is ${describeValue(value)}`,
		);
	}
	const entries: unknown[] = Array.isArray(value)
		? value
		: typeof value === 'string'
			? [value]
			: [];
	const wrongType = entries.findIndex((event) => typeof event !== 'string');
	if (wrongType !== -1) {
		const entry = describeValue(entries[wrongType]);
		throw fieldError(
			this,
			itemIndex,
			field,
			`must list event names as text, but entry ${wrongType} is ${entry}`,
		);
	}
	const events = (entries as string[]).filter((event) => event.trim() !== '');
	if (events.length === 0) {
		throw fieldError(this, itemIndex, field, 'must name at least one event (or All Events)');
	}
	// The API takes "all" only as the single-element list ['*'].
	return events.includes('*') ? ['*'] : events;
}
