/**
 * The sandbox's control interface (`/__sandbox/*`) and the slice of its public API the end-to-end
 * tests call directly, over HTTP, so it works for an in-process sandbox and for the demo's alike.
 */
import { API_PATH, sandboxBody } from './sandbox-api';

export interface EventEnvelope {
	id: string;
	type: string;
	created_at: string;
	mode: 'live' | 'test';
	data: Record<string, unknown>;
}

export interface WebhookEndpoint {
	id: string;
	url: string;
	events: string[];
	enabled: boolean;
	secret?: string;
	/** From the control interface: the secrets rolls replaced that still sign, oldest first. */
	previous_secrets?: { secret: string; expires_at: string }[];
	[field: string]: unknown;
}

export interface WebhookDelivery {
	id: string;
	endpoint_id: string;
	event_id: string;
	event_type: string;
	status: 'pending' | 'processing' | 'delivered' | 'failed' | 'dead';
	attempts: number;
	last_response_status: number | null;
	[field: string]: unknown;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, unknown>;
	body: unknown;
	/** As received, names in lower case. */
	headers: Record<string, string | string[] | undefined>;
	at: string;
}

export interface SandboxTarget {
	organization: string;
	mode: 'live' | 'test';
}

export class SandboxControl {
	constructor(
		readonly origin: string,
		readonly target: SandboxTarget = { organization: 'acme', mode: 'live' },
	) {}

	async reset(): Promise<void> {
		await this.call('POST', '/__sandbox/reset');
	}

	/**
	 * Emits `type` with `data`, or with the example payload when `data` is left out; with
	 * `mergeIntoExample`, `data` is deep-merged into the example payload instead.
	 */
	async emitEvent(
		type: string,
		data?: Record<string, unknown>,
		{ mergeIntoExample = false } = {},
	): Promise<{ event: EventEnvelope; delivery_ids: string[]; example_payload: boolean }> {
		return await this.call('POST', '/__sandbox/events', {
			...this.target,
			type,
			...(data ? { [mergeIntoExample ? 'example_overrides' : 'data']: data } : {}),
		});
	}

	/** Seeds the target with the demo world (world.ts): members, customers and sites. */
	async seedWorld(): Promise<{ members: number; customers: number; sites: number }> {
		return await this.call('POST', '/__sandbox/seed/world', this.target);
	}

	/** The sandbox clock (wall clock plus what `advanceClock` added), in milliseconds. */
	async now(): Promise<number> {
		const { now } = await this.call<{ now: string }>('GET', '/__sandbox/clock');
		return Date.parse(now);
	}

	async advanceClock(seconds: number): Promise<void> {
		await this.call('POST', '/__sandbox/clock/advance', { seconds });
	}

	/** Moves the sandbox clock on, then waits until the deliveries due by then have been made. */
	async advanceAndSettle(seconds: number): Promise<WebhookDelivery[]> {
		await this.advanceClock(seconds);
		return await this.settleDeliveries();
	}

	/** Waits until no delivery is in flight or due, and returns the delivery records. */
	async settleDeliveries(): Promise<WebhookDelivery[]> {
		const { deliveries } = await this.call<{ deliveries: WebhookDelivery[] }>(
			'POST',
			'/__sandbox/deliveries/settle',
		);
		return deliveries;
	}

	/** The target's webhook endpoints, secrets included. */
	async endpoints(): Promise<WebhookEndpoint[]> {
		const query = new URLSearchParams({ ...this.target });
		const { endpoints } = await this.call<{ endpoints: WebhookEndpoint[] }>(
			'GET',
			`/__sandbox/endpoints?${query}`,
		);
		return endpoints;
	}

	/** Rotates an API key: a new key with the same grants, the old one revoked at once. */
	async rotateKey(apiKey: string): Promise<string> {
		const { key } = await this.call<{ key: string }>('POST', '/__sandbox/keys/rotate', {
			key: apiKey,
		});
		return key;
	}

	/**
	 * The next `count` API requests under `path` are handled at once and answered `seconds` later
	 * (the sandbox's `late_answer` fault).
	 */
	async lateAnswers(path: string, seconds: number, count = 1): Promise<void> {
		await this.call('POST', '/__sandbox/faults', { kind: 'late_answer', path, seconds, count });
	}

	/**
	 * The next `count` API requests under `path` are handled at once and answered only when
	 * `releaseAnswers()` is called (a `late_answer` fault with `hold`; at most 10 minutes).
	 */
	async holdAnswers(path: string, count = 1): Promise<void> {
		await this.call('POST', '/__sandbox/faults', { kind: 'late_answer', path, hold: true, count });
	}

	/** Sends every answer `holdAnswers` kept back; how many there were. */
	async releaseAnswers(): Promise<number> {
		const { released } = await this.call<{ released: number }>('POST', '/__sandbox/faults/release');
		return released;
	}

	/**
	 * The next `count` API requests under `path` are answered with `status` (a status fault); a 429
	 * asks for `retryAfterSeconds` (the sandbox's default: 1).
	 */
	async failRequests(
		path: string,
		status: 429 | 500 | 503,
		count = 1,
		retryAfterSeconds?: number,
	): Promise<void> {
		await this.call('POST', '/__sandbox/faults', {
			status,
			path,
			count,
			retry_after: retryAfterSeconds,
		});
	}

	/** The faults not yet used up, in the order they were added. */
	async pendingFaults(): Promise<{ kind: string; path: string | null; remaining: number }[]> {
		const { faults } = await this.call<{
			faults: { kind: string; path: string | null; remaining: number }[];
		}>('GET', '/__sandbox/faults');
		return faults;
	}

	/** Drops every pending fault: the API answers as usual again. */
	async clearFaults(): Promise<void> {
		await this.call('DELETE', '/__sandbox/faults');
	}

	/** Resolves once every fault added so far has been used up (its request is being handled). */
	async faultsTaken(timeoutMs = 10_000): Promise<void> {
		for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
			if ((await this.pendingFaults()).length === 0) return;
			await new Promise((wake) => setTimeout(wake, 20));
		}
		throw new Error(`No request took the pending faults within ${timeoutMs / 1000} s`);
	}

	async seedMembers(count: number): Promise<void> {
		await this.call('POST', '/__sandbox/seed/members', { ...this.target, count });
	}

	async requests(): Promise<RecordedRequest[]> {
		const { requests } = await this.call<{ requests: RecordedRequest[] }>(
			'GET',
			'/__sandbox/requests',
		);
		return requests;
	}

	async clearRequests(): Promise<void> {
		await this.call('DELETE', '/__sandbox/requests');
	}

	/** A request to the sandbox's public API with an API key, as a client of the real API would make. */
	async api<T = unknown>(apiKey: string, method: string, path: string, body?: unknown): Promise<T> {
		return await sandboxBody<T>(this.origin + API_PATH + path, method, { apiKey, body });
	}

	private async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		return await sandboxBody<T>(this.origin + path, method, { body });
	}
}
