/**
 * What an activation does with the endpoints at the API: adopt the one static data names when it
 * is this trigger's, in place (events and enabled state patched, the mark of a deletion pending in
 * another process replaced by `kept`, the secret rolled when the stored one no longer opens or is
 * not the one the API signs with), or register a new one. Adopting keeps the endpoint, its secret
 * and the API's queued retries.
 */
import type { IHookFunctions } from 'n8n-workflow';

import { describesWorkflow, type RetirementMark, withMark } from '../../shared/webhooks';
import { forgetAcceptedEnvelopes } from '../duplicates/envelopeMemory';
import { operatorLog } from '../operatorLog';
import { openStoredSecret, sealSecret } from '../secrets/secretStore';
import { forgetRegistration, type TriggerStaticData } from '../staticData';
import { claimHolds, nowSeconds } from './deletionWindow';
import {
	createEndpoint,
	deleteOwnEndpoints,
	fetchEndpoint,
	patchEndpoint,
	rollEndpointSecret,
	wantedRegistration,
	warnOfEndpointElsewhere,
	webhookUrlOf,
} from './endpointCalls';
import { isOwnEndpoint, reconcile, type RemoteEndpoint } from './reconcile';

/**
 * The endpoint static data names, if it still exists and is this trigger's. One that delivers
 * elsewhere or belongs to another workflow (static data copied with a duplicated or imported
 * workflow, a staging copy of production) is left alone, and this trigger registers its own.
 */
async function storedOwnEndpoint(
	this: IHookFunctions,
	staticData: TriggerStaticData,
): Promise<RemoteEndpoint | undefined> {
	if (!staticData.endpointId) return undefined;
	const remote = await fetchEndpoint.call(this, staticData.endpointId);
	const workflowId = this.getWorkflow().id ?? '';
	if (!remote || isOwnEndpoint(remote, workflowId, webhookUrlOf(this))) return remote;
	if (describesWorkflow(remote.description, workflowId)) {
		warnOfEndpointElsewhere.call(this, remote, webhookUrlOf(this));
	} else {
		this.logger.warn(
			`Webhook endpoint ${remote.id} named in this trigger's static data belongs to another workflow; it is left alone`,
			operatorLog(this).meta,
		);
	}
	return undefined;
}

/**
 * Whether a claim on an endpoint carrying `mark` (a deletion pending in another process, or none)
 * keeps it, the claim sent at `sentAt` and answered now; the endpoint is named in the log if not.
 */
function keepsClaim(
	this: IHookFunctions,
	endpointId: string,
	mark: RetirementMark | undefined,
	sentAt: number,
): boolean {
	if (mark?.deletionAt === undefined || claimHolds(mark, { sentAt, answeredAt: nowSeconds() }))
		return true;
	this.logger.debug(
		`Webhook endpoint ${endpointId} is to be deleted by a deactivation in another n8n process at ${new Date(mark.deletionAt * 1000).toISOString()}, which may remove it even once claimed; a new endpoint is registered instead`,
		operatorLog(this).meta,
	);
	return false;
}

/**
 * The description that claims an endpoint whose deletion is pending in another process: `kept`
 * with that deletion's token, which the deletion reads as an activation's claim. Without it, a
 * vanished mark could be a recovery's write over it (retirement.ts).
 */
function keptFrom(
	pendingElsewhere: RetirementMark | undefined,
	description: string | undefined,
): { description?: string } {
	if (pendingElsewhere === undefined || description === undefined) return {};
	return { description: withMark(description, { kind: 'kept', ...pendingElsewhere }) };
}

/**
 * Adopts the endpoint static data names and answers it, or answers `undefined` (static data then
 * names none) when nothing usable exists or a deletion pending in another process may still remove
 * it (deletionWindow.ts). `reclaimed`: a `delete()` in this process retired it, and its deletion
 * is stopped.
 */
export async function adoptStoredEndpoint(
	this: IHookFunctions,
	staticData: TriggerStaticData,
	reclaimed: boolean,
): Promise<RemoteEndpoint | undefined> {
	const wanted = wantedRegistration.call(this);
	const remote = await storedOwnEndpoint.call(this, staticData);
	// reconcile judges the secret in the clear; one that no longer opens (another API key) is lost
	const secret = await openStoredSecret.call(this, staticData);
	const plan = reconcile({ ...staticData, secret }, remote, wanted);
	const pendingElsewhere = plan.kind === 'adopt' && !reclaimed ? plan.pendingDeletion : undefined;
	if (
		remote === undefined ||
		plan.kind === 'create' ||
		!keepsClaim.call(this, remote.id, pendingElsewhere, nowSeconds())
	) {
		forgetRegistration(staticData);
		return undefined;
	}
	if (plan.roll) {
		// before enabling, so the retries it releases are signed with a secret this trigger holds
		const rolled = await rollEndpointSecret.call(this, remote.id);
		staticData.secret = await sealSecret.call(this, remote.id, rolled);
	}
	const claimSentAt = nowSeconds();
	if (Object.keys(plan.changes).length > 0) {
		await patchEndpoint.call(this, remote.id, {
			...plan.changes,
			...keptFrom(pendingElsewhere, plan.changes.description),
		});
	}
	if (!keepsClaim.call(this, remote.id, pendingElsewhere, claimSentAt)) {
		// registerEndpoint deletes it with this trigger's other endpoints at the URL
		forgetRegistration(staticData);
		return undefined;
	}
	staticData.url = wanted.url;
	staticData.events = wanted.events;
	return remote;
}

/**
 * Deletes this trigger's endpoints it no longer knows and registers one; static data names it. The
 * duplicate memory is dropped: a new endpoint repeats none of the ids the old ones delivered.
 */
export async function registerEndpoint(
	this: IHookFunctions,
	staticData: TriggerStaticData,
): Promise<void> {
	const wanted = wantedRegistration.call(this);
	await deleteOwnEndpoints.call(this, wanted.url);
	forgetAcceptedEnvelopes(staticData);
	const endpoint = await createEndpoint.call(this, wanted);
	staticData.endpointId = endpoint.id;
	staticData.secret = await sealSecret.call(this, endpoint.id, endpoint.secret);
	staticData.url = wanted.url;
	staticData.events = wanted.events;
}
