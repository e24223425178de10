/**
 * What a request must be before its signature is even checked. The API sends every delivery as
 * `application/json`; anything else is refused with 415 before n8n's parsed body is touched, so a
 * multipart or form post (whose body n8n has already consumed) never reaches `readRawBody()`.
 */

/** `application/json`, with or without parameters (`; charset=utf-8`), in any letter case. */
export function isJsonMediaType(contentType: string | string[] | undefined): boolean {
	if (typeof contentType !== 'string') return false;
	return contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * The signing secrets to verify with. Static data can be edited by hand or left half-written; a
 * stored value that is not a non-empty string counts as no secret, so verification fails closed
 * (401) instead of throwing (500).
 */
export function storedSecrets(secret: unknown): string[] {
	return typeof secret === 'string' && secret !== '' ? [secret] : [];
}
