/**
 * The API root the credential points at, tolerant of a trailing slash and of a missing `/api/v1`.
 * The credential's test request applies the same rule in expression form.
 */
export function apiRootUrl(baseUrl: string): string {
	const origin = baseUrl
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api(\/v1)?$/, '');
	return `${origin}/api/v1`;
}

/** The `user:password` of a URL written as `scheme://user:password@host`, if it has one. */
function userInfoOf(url: string): string | undefined {
	return /^\s*[a-z][a-z0-9+.-]*:\/\/([^/?#@\s]+)@/i.exec(url)?.[1];
}

function decodeURIComponentSafely(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/**
 * A function that blanks out the `user:password` of `baseUrl`, and the password alone (as written
 * and decoded), wherever they appear in a text, so that no message (nor a stack built from it)
 * carries them.
 */
export function userInfoRedactor(baseUrl: string): (text: string) => string {
	const userInfo = userInfoOf(baseUrl);
	if (userInfo === undefined) return (text) => text;
	// The user name alone stays: it is no secret, and blanking a short one would mangle words.
	const password = userInfo.includes(':') ? userInfo.slice(userInfo.indexOf(':') + 1) : '';
	// Longest first, so the user info is blanked whole: it holds the password, which is never
	// shorter than its decoded form.
	const secrets = [userInfo, password, decodeURIComponentSafely(password)].filter(
		(secret) => secret !== '',
	);
	return (text) => secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
}

export const API_ROOT_HINT =
	'The Base URL must be the API root of your Workforce Management instance, the address ending in /api/v1 (for example https://app.example.com/api/v1).';

/** This machine: 127.0.0.0/8, ::1 and localhost, as `URL` writes their host names. */
function isLoopbackHost(hostname: string): boolean {
	return (
		hostname === 'localhost' ||
		hostname === '[::1]' ||
		/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
	);
}

/**
 * What makes a Base URL unusable, before any request: no http(s) scheme, no valid address, or
 * `http://` to another machine, which would send the API key unencrypted.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	if (!/^\s*https?:\/\/[^/\s]+/i.test(baseUrl)) {
		return `The Base URL must start with https://. ${API_ROOT_HINT}`;
	}
	let url: URL;
	try {
		url = new URL(apiRootUrl(baseUrl));
	} catch {
		return `The Base URL is not a valid web address. ${API_ROOT_HINT}`;
	}
	if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
		return `The Base URL starts with http://, so the API key would travel unencrypted to ${url.host}. Use the https:// address: the Workforce Management API is served over HTTPS, and http:// is accepted only for this machine (localhost, 127.0.0.1, ::1).`;
	}
	return undefined;
}
