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

/**
 * A function that blanks out the user name and password of `baseUrl` wherever they appear in a
 * text, so that no message (nor a stack built from it) carries them.
 */
export function userInfoRedactor(baseUrl: string): (text: string) => string {
	const userInfo = userInfoOf(baseUrl);
	if (userInfo === undefined) return (text) => text;
	const secrets = [userInfo, ...userInfo.split(':'), encodeURIComponent(userInfo)]
		.filter((secret) => secret !== '')
		.sort((a, b) => b.length - a.length);
	return (text) => secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
}
