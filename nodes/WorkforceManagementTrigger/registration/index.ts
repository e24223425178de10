/**
 * The trigger's endpoint at the API: which one is its own, adopting or registering it on
 * activation, retiring it on `delete()`, and every call the trigger makes to the endpoint API.
 */
export { adoptStoredEndpoint, registerEndpoint } from './adoption';
export { fetchEndpoint, patchEndpoint, rollEndpointSecret, webhookUrlOf } from './endpointCalls';
export { isOwnEndpoint, type RemoteEndpoint } from './reconcile';
export {
	deleteUnclaimed,
	deletionTime,
	markRetired,
	reclaim,
	registrationKey,
	restoreErasedMarks,
	type RetiredEndpoints,
	retire,
} from './retirement';
