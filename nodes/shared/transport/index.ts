export { apiRootUrl } from './baseUrl';
export { workforceApiRequest } from './request';
export { LONGEST_WRITE_MS, TRANSPORT_MAX_ATTEMPTS } from './retry';
export { MAX_ANSWER_BYTES, REQUEST_DEADLINE_MS } from './limits';
export type { WorkforceApiContext, WorkforceApiRequestOptions } from './request';
export {
	MAX_EMPTY_PAGES_IN_A_ROW,
	MAX_PAGE_SIZE,
	PageBudget,
	walkPages,
	workforceApiListPage,
	workforceApiPaginate,
} from './paginate';
export type { PageWalk, PageWalkStop, WorkforceListPage } from './paginate';
export {
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	RATE_LIMIT_MIN_WAIT_MS,
	retryAfterMs,
} from './rateLimit';
export { CREDENTIAL_TYPE } from './credentialType';
