/**
 * How long one request may take, from sending it to the last byte of the answer. n8n's `timeout`
 * bounds only the silence between two bytes, so a server or proxy that trickles its answer could
 * hold a request for as long as it liked; and n8n activates workflows one after another at
 * start-up, so a Base URL that never answers would hold them all.
 */
export const REQUEST_DEADLINE_MS = 30_000;

/**
 * The most an answer may hold. The API's largest answer, a page of 100 records, is well under
 * 1 MB; n8n's request helpers read any size whole (no `maxContentLength` reaches axios), so a
 * proxy or file server behind a wrong Base URL could fill n8n's memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
