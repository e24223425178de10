/** The header that carries the API key on every request, as the API's authentication asks. */
export function authorizationHeader(apiKey: unknown): { Authorization: string } {
	return { Authorization: `Bearer ${String(apiKey)}` };
}
