/**
 * Repairs the stored signing secret from inside a delivery, with no reactivation: after an API key
 * change (the sealed secret no longer opens), and when several webhook processes repaired at once
 * and a save of static data left an earlier roll's secret stored. What to do is decided in
 * secretRepairDecision.ts; this file makes the calls and keeps what this process rolled.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { BoundedMap, PER_PROCESS_ENTRIES } from '../boundedMap';
import { operatorLog } from '../operatorLog';
import { fetchEndpoint, isOwnEndpoint, rollEndpointSecret } from '../registration';
import { sealSecret } from '../secrets/secretStore';
import type { StoredRegistration } from '../staticData';
import { decideRepair } from './secretRepairDecision';

interface HeldSecret {
	secret: string;
	sealed: string;
}

/** What this process did to repair one endpoint's stored secret. */
interface SecretRepairMemory {
	lookedAt?: number;
	/** Secrets this process rolled, oldest first: the API shows which one it signs with. */
	rolled: HeldSecret[];
	/** What this process last stored, and the values it stored it over. */
	stored?: HeldSecret;
	replaced: string[];
}

/** How many rolled secrets and replaced values a repair memory keeps, the newest. */
const MAX_HELD_SECRETS = 8;

/**
 * Per-process memory: secret repairs, by endpoint id: when this process last looked at the
 * endpoint, and the secrets it rolled and stored. At most `PER_PROCESS_ENTRIES` endpoints (the one
 * written longest ago dropped), each holding at most `MAX_HELD_SECRETS` of each. Per process
 * because the rolled secrets are in the clear, and because the look at the endpoint is rate-limited
 * per process.
 */
const secretRepairs = new BoundedMap<string, SecretRepairMemory>(PER_PROCESS_ENTRIES);

/**
 * At most one look at the endpoint per endpoint and process in this time: forged traffic makes the
 * trigger call the API at most once a minute.
 */
export const REPAIR_INTERVAL_SECONDS = 60;

function memoryOf(endpointId: string): SecretRepairMemory {
	const remembered = secretRepairs.get(endpointId) ?? { rolled: [], replaced: [] };
	secretRepairs.set(endpointId, remembered);
	return remembered;
}

function store(stored: StoredRegistration, remembered: SecretRepairMemory, held: HeldSecret): void {
	if (typeof stored.secret === 'string' && stored.secret !== held.sealed) {
		remembered.replaced = [...remembered.replaced, stored.secret].slice(-MAX_HELD_SECRETS);
	}
	remembered.stored = held;
	stored.secret = held.sealed;
}

/**
 * When static data holds a value this process already repaired, another request's save (loaded
 * before the repair) has put it back: stores this process's repair again, with no API call and no
 * credential load, and returns its secret.
 */
export function restoreRepairedSecret(
	stored: StoredRegistration,
	endpointId: string,
): string | undefined {
	const remembered = secretRepairs.get(endpointId);
	if (!remembered?.stored || !remembered.replaced.includes(stored.secret as string)) {
		return undefined;
	}
	stored.secret = remembered.stored.sealed;
	return remembered.stored.secret;
}

export interface RepairOccasion {
	/** The stored secret in the clear; `undefined` when it cannot be opened. */
	stored: string | undefined;
	storedVerifies: boolean;
}

/**
 * Looks at the endpoint (rate-limited) and stores the secret the API signs with when the stored
 * one is not it: one this process rolled, or a new roll. Returns the secret now stored, if changed.
 */
export async function repairSecret(
	this: IWebhookFunctions,
	stored: StoredRegistration,
	endpointId: string,
	occasion: RepairOccasion,
	nowSeconds: number,
): Promise<string | undefined> {
	const remembered = memoryOf(endpointId);
	if (
		remembered.lookedAt !== undefined &&
		nowSeconds - remembered.lookedAt < REPAIR_INTERVAL_SECONDS
	) {
		return undefined;
	}
	remembered.lookedAt = nowSeconds;
	const log = repairLog(this, endpointId, occasion.stored === undefined);
	try {
		const remote = await fetchEndpoint.call(this, endpointId);
		const url = this.getNodeWebhookUrl('default') as string;
		if (!remote || !isOwnEndpoint(remote, this.getWorkflow().id ?? '', url)) {
			log.gone();
			return undefined;
		}
		const decision = decideRepair({
			...occasion,
			preview: remote.secret_preview,
			rolled: remembered.rolled.map((held) => held.secret),
		});
		if (decision.action === 'adopt') {
			const held = remembered.rolled.find((rolled) => rolled.secret === decision.secret);
			store(stored, remembered, held as HeldSecret);
			log.adopted();
			return decision.secret;
		}
		if (decision.action !== 'roll') return undefined;
		const secret = await rollEndpointSecret.call(this, endpointId);
		const held = { secret, sealed: await sealSecret.call(this, endpointId, secret) };
		remembered.rolled = [...remembered.rolled, held].slice(-MAX_HELD_SECRETS);
		store(stored, remembered, held);
		log.rolled();
		return secret;
	} catch (error) {
		log.failed(error as Error);
		return undefined;
	}
}

/** One line per look at the endpoint, for whoever runs n8n: which workflow, what, and what next. */
function repairLog(context: IWebhookFunctions, endpointId: string, unusable: boolean) {
	const { where, meta } = operatorLog(context);
	const problem = unusable
		? "the stored webhook signing secret cannot be used with the credential's API key (was the API key changed?)"
		: `the stored webhook signing secret is no longer the one endpoint ${endpointId} signs with (another webhook process rolled it, and a save of static data put an earlier one back)`;
	return {
		gone: () =>
			context.logger.error(
				`${where}: ${problem}, and endpoint ${endpointId} is gone or belongs to another workflow, so its secret is left alone. Deactivate and activate this workflow to register its own endpoint.`,
				meta,
			),
		adopted: () =>
			context.logger.info(
				`${where}: ${problem}: stored the secret this process rolled for endpoint ${endpointId} again.`,
				meta,
			),
		rolled: () =>
			context.logger.warn(
				`${where}: ${problem}: rolled the signing secret of endpoint ${endpointId}; the API keeps signing with the replaced secret for 24 hours, so deliveries refused meanwhile are accepted on their next retry.`,
				meta,
			),
		failed: (error: Error) =>
			unusable
				? context.logger.error(
						`${where}: ${problem}, and this process could not repair the signing secret of endpoint ${endpointId}: ${error.message}. Deliveries are refused with 401 and retried by the API; the next repair is tried in ${REPAIR_INTERVAL_SECONDS} seconds (or deactivate and activate the workflow).`,
						meta,
					)
				: context.logger.warn(
						`${where}: could not check whether the stored webhook signing secret is the one endpoint ${endpointId} signs with: ${error.message}. Tried again in ${REPAIR_INTERVAL_SECONDS} seconds.`,
						meta,
					),
	};
}
