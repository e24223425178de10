export { API_ROOT_HINT, apiRootUrl, baseUrlProblem, userInfoRedactor } from './baseUrl';
export { authorizationHeader, CREDENTIAL_TYPE } from './credential';
export type { WorkforceApiContext } from './credential';
export { MAX_ANSWER_BYTES, REQUEST_DEADLINE_MS } from './wire';
export { sendOnce } from './send';
export type { SendOutcome } from './send';
export {
	describeRateLimitAttempts,
	RATE_LIMIT_MAX_ATTEMPTS,
	RATE_LIMIT_MAX_TOTAL_WAIT_MS,
	RATE_LIMIT_MIN_WAIT_MS,
	retryAfterMs,
} from './rateLimit';
export { afterOutcome, LONGEST_WRITE_MS, NO_ATTEMPTS, TRANSPORT_MAX_ATTEMPTS } from './retry';
export type { Attempts } from './retry';
export {
	apiError,
	cutShortWording,
	deadlineError,
	describeFailure,
	errorBodyOf,
	unexpectedAnswerError,
	unreachableError,
} from './apiError';
export { resultOf } from './result';
export type { RequestTarget } from './result';
export { workforceApiRequest } from './request';
export type { WorkforceApiRequestOptions } from './request';
export {
	MAX_EMPTY_PAGES_IN_A_ROW,
	MAX_PAGE_SIZE,
	PageBudget,
	walkPages,
	workforceApiListPage,
} from './pages';
export type { PageWalk, PageWalkStop, WorkforceListPage } from './pages';
export { workforceApiPaginate } from './paginate';
