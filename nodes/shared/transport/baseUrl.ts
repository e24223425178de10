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
