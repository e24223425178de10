import { createHmac, randomUUID } from 'node:crypto';

import type { SandboxClock } from './clock';
import { isoTimestamp } from './clock';
import type { WebhooksConfig } from './config';
import type { EventEnvelope, Store, StoredDelivery, StoredEndpoint, Tenant } from './store';
import { newEventId } from './store';

/** The spec's ceiling: "up to 8 attempts". */
const MAX_ATTEMPTS = 8;
/** Attempts in flight at once: a burst of events queues instead of flooding the receivers. */
export const MAX_CONCURRENT_ATTEMPTS = 16;
export const PREVIOUS_SECRET_VALIDITY_MS = 24 * 3_600_000;
export const DELIVERY_USER_AGENT = 'WorkforceManagement-Webhooks/1.0 (sandbox)';

export interface TestDeliveryResult {
	delivery_id: string;
	ok: boolean;
	response_status: number;
	duration_ms: number;
}

interface AttemptOutcome {
	status: number | null;
	error: string | null;
	durationMs: number;
}

interface Scheduled {
	tenant: Tenant;
	delivery: StoredDelivery;
}

export function subscribes(endpoint: StoredEndpoint, type: string): boolean {
	const events = endpoint.resource.events;
	return events.includes('*') || events.includes(type);
}

/**
 * `t=<unix>,v1=<hex>[,v1=<hex>…]`: the current secret, then each rolled-over one still valid,
 * newest first.
 */
export function signatureHeader(endpoint: StoredEndpoint, body: string, nowMs: number): string {
	const timestamp = Math.floor(nowMs / 1000);
	const secrets = [
		endpoint.secret,
		...endpoint.previousSecrets
			.filter((previous) => previous.expiresAt > nowMs)
			.map((previous) => previous.secret)
			.reverse(),
	];
	const signatures = secrets.map(
		(secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
	);
	return [`t=${timestamp}`, ...signatures].join(',');
}

interface ErrorLike {
	name?: string;
	message?: string;
	cause?: { code?: string; message?: string };
}

/** Duck-typed: fetch's errors may come from another realm (jest), where `instanceof Error` fails. */
function describeFailure(error: unknown, timeoutMs: number): string {
	const { name, message, cause } = (error ?? {}) as ErrorLike;
	if (name === 'TimeoutError') return `Timed out after ${timeoutMs} ms`;
	if (name === 'AbortError') return 'Aborted: the sandbox was reset or closed';
	return cause?.message ?? message ?? String(error);
}

/**
 * Queues, signs and sends deliveries. Retries are due on the sandbox clock: a real timer fires
 * them when their time comes, and advancing the clock fires them at once.
 */
export class DeliveryEngine {
	private readonly scheduled = new Map<string, Scheduled>();
	private readonly inFlight = new Map<string, Promise<void>>();
	private abortController = new AbortController();
	private timer: NodeJS.Timeout | null = null;
	private stopping = false;

	constructor(
		private readonly store: Store,
		private readonly clock: SandboxClock,
		private readonly config: WebhooksConfig,
	) {}

	private get maxAttempts(): number {
		return Math.min(MAX_ATTEMPTS, this.config.retryDelaysSeconds.length + 1);
	}

	/** Creates the event and one delivery per enabled, subscribed endpoint of the tenant. */
	emit(
		tenant: Tenant,
		type: string,
		data: object,
	): { event: EventEnvelope; deliveryIds: string[] } {
		const event = this.envelope(tenant, type, data);
		const body = JSON.stringify(event);
		const deliveryIds = tenant.endpoints
			.values()
			.filter((endpoint) => endpoint.resource.enabled && subscribes(endpoint, type))
			.map((endpoint) => this.queue(tenant, endpoint, event, body, null).resource.id);
		this.pumpSoon();
		return { event, deliveryIds };
	}

	/** A fresh delivery of the same envelope bytes (same event id) to the same endpoint. */
	redeliver(tenant: Tenant, original: StoredDelivery): StoredDelivery {
		const endpoint = tenant.endpoints.get(original.resource.endpoint_id);
		const event = JSON.parse(original.body) as EventEnvelope;
		const delivery = this.queue(tenant, endpoint, event, original.body, original.resource.id);
		this.pumpSoon();
		return delivery;
	}

	/** One attempt, awaited, marked `X-Webhook-Test: true`; it never touches the endpoint's counters. */
	async sendTest(
		tenant: Tenant,
		endpoint: StoredEndpoint,
		type: string,
		data: object,
	): Promise<TestDeliveryResult> {
		const event = this.envelope(tenant, type, data);
		const delivery = this.createDelivery(
			tenant,
			endpoint,
			event,
			JSON.stringify(event),
			null,
			true,
		);
		const outcome = await this.track(delivery, this.attempt(tenant, delivery));
		return {
			delivery_id: delivery.resource.id,
			ok: delivery.resource.status === 'delivered',
			response_status: outcome?.status ?? 0,
			duration_ms: outcome?.durationMs ?? 0,
		};
	}

	/** Starts every attempt that is due now and arms the timer for the next one. */
	pump(): void {
		if (this.stopping) return;
		const now = this.clock.now();
		for (const { tenant, delivery } of this.scheduled.values()) {
			if (this.inFlight.size >= MAX_CONCURRENT_ATTEMPTS) break;
			if (
				delivery.nextAttemptAt !== null &&
				delivery.nextAttemptAt <= now &&
				!this.inFlight.has(delivery.resource.id)
			) {
				this.scheduled.delete(delivery.resource.id);
				void this.track(delivery, this.attempt(tenant, delivery));
			}
		}
		this.armTimer();
	}

	/** Resolves once no attempt is in flight and none is due on the sandbox clock. */
	async settle(): Promise<void> {
		for (;;) {
			this.pump();
			if (this.inFlight.size === 0) return;
			await Promise.allSettled([...this.inFlight.values()]);
		}
	}

	/** Aborts attempts in flight and forgets all queued work (reset and close). */
	async stop(): Promise<void> {
		this.stopping = true;
		this.abortController.abort();
		await Promise.allSettled([...this.inFlight.values()]);
		// Cleared last: an aborted attempt may just have scheduled its retry.
		this.scheduled.clear();
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		this.abortController = new AbortController();
		this.stopping = false;
	}

	private envelope(tenant: Tenant, type: string, data: object): EventEnvelope {
		return {
			id: newEventId(),
			type,
			created_at: this.store.now(),
			mode: tenant.mode,
			data: data as Record<string, unknown>,
		};
	}

	private queue(
		tenant: Tenant,
		endpoint: StoredEndpoint,
		event: EventEnvelope,
		body: string,
		redeliveryOf: string | null,
	): StoredDelivery {
		const delivery = this.createDelivery(tenant, endpoint, event, body, redeliveryOf, false);
		delivery.nextAttemptAt = this.clock.now();
		this.scheduled.set(delivery.resource.id, { tenant, delivery });
		return delivery;
	}

	private createDelivery(
		tenant: Tenant,
		endpoint: StoredEndpoint,
		event: EventEnvelope,
		body: string,
		redeliveryOf: string | null,
		isTest: boolean,
	): StoredDelivery {
		return tenant.deliveries.add({
			seq: this.store.seq(),
			body,
			isTest,
			nextAttemptAt: null,
			resource: {
				id: randomUUID(),
				endpoint_id: endpoint.resource.id,
				event_id: event.id,
				event_type: event.type,
				mode: tenant.mode,
				status: 'pending',
				attempts: 0,
				last_response_status: null,
				last_error: null,
				redelivery_of: redeliveryOf,
				delivered_at: null,
				created_at: this.store.now(),
			},
		});
	}

	private track<T>(delivery: StoredDelivery, work: Promise<T>): Promise<T> {
		const id = delivery.resource.id;
		const done = work.finally(() => {
			this.inFlight.delete(id);
			this.pump();
		});
		this.inFlight.set(
			id,
			done.then(
				() => undefined,
				() => undefined,
			),
		);
		return done;
	}

	/** The first attempt runs right after the API response, never inside the request. */
	private pumpSoon(): void {
		setImmediate(() => this.pump());
	}

	private armTimer(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		// When every slot is taken, the next finishing attempt pumps again.
		if (this.inFlight.size >= MAX_CONCURRENT_ATTEMPTS) return;
		let earliest = Infinity;
		for (const { delivery } of this.scheduled.values()) {
			if (delivery.nextAttemptAt !== null) earliest = Math.min(earliest, delivery.nextAttemptAt);
		}
		if (earliest === Infinity) return;
		const delay = Math.max(0, Math.min(earliest - this.clock.now(), 2 ** 31 - 1));
		this.timer = setTimeout(() => this.pump(), delay);
		this.timer.unref();
	}

	private async attempt(tenant: Tenant, delivery: StoredDelivery): Promise<AttemptOutcome | null> {
		const record = delivery.resource;
		delivery.nextAttemptAt = null;
		const endpoint = tenant.endpoints.find(record.endpoint_id);
		if (!endpoint) return null;
		if (!endpoint.resource.enabled && !delivery.isTest) {
			record.status = 'dead';
			record.last_error = 'Endpoint is disabled';
			return null;
		}
		record.status = 'processing';
		record.attempts += 1;
		const outcome = await this.post(endpoint, delivery);
		this.record(tenant, endpoint, delivery, outcome);
		return outcome;
	}

	private async post(endpoint: StoredEndpoint, delivery: StoredDelivery): Promise<AttemptOutcome> {
		const started = performance.now();
		const headers: Record<string, string> = {
			'Content-Type': 'application/json',
			'User-Agent': DELIVERY_USER_AGENT,
			'X-Webhook-Id': delivery.resource.event_id,
			'X-Webhook-Delivery-Id': delivery.resource.id,
			'X-Webhook-Signature': signatureHeader(endpoint, delivery.body, this.clock.now()),
		};
		if (delivery.isTest) headers['X-Webhook-Test'] = 'true';
		try {
			const response = await fetch(endpoint.resource.url, {
				method: 'POST',
				headers,
				body: delivery.body,
				redirect: 'manual',
				signal: AbortSignal.any([
					this.abortController.signal,
					AbortSignal.timeout(this.config.timeoutMs),
				]),
			});
			await response.arrayBuffer().catch(() => undefined);
			return {
				status: response.status,
				error: null,
				durationMs: Math.round(performance.now() - started),
			};
		} catch (error) {
			return {
				status: null,
				error: describeFailure(error, this.config.timeoutMs),
				durationMs: Math.round(performance.now() - started),
			};
		}
	}

	private record(
		tenant: Tenant,
		endpoint: StoredEndpoint,
		delivery: StoredDelivery,
		outcome: AttemptOutcome,
	): void {
		const record = delivery.resource;
		const nowMs = this.clock.now();
		const now = isoTimestamp(nowMs);
		const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
		record.last_response_status = outcome.status;
		record.last_error = succeeded
			? null
			: (outcome.error ?? `Endpoint answered HTTP ${outcome.status}`);

		if (succeeded) {
			record.status = 'delivered';
			record.delivered_at = now;
		} else if (delivery.isTest) {
			record.status = 'failed';
		} else if (outcome.status === 410) {
			record.status = 'dead';
			record.last_error = 'Endpoint answered HTTP 410 Gone: delivery stopped';
		} else if (record.attempts >= this.maxAttempts) {
			record.status = 'dead';
		} else {
			record.status = 'failed';
			delivery.nextAttemptAt = nowMs + this.config.retryDelaysSeconds[record.attempts - 1] * 1000;
			this.scheduled.set(record.id, { tenant, delivery });
		}

		if (delivery.isTest) return;
		const stats = endpoint.resource;
		stats.last_delivery_at = now;
		if (succeeded) {
			stats.consecutive_failures = 0;
			stats.last_success_at = now;
			return;
		}
		stats.consecutive_failures += 1;
		if (stats.enabled && stats.consecutive_failures >= this.config.autoDisableAfter) {
			stats.enabled = false;
			stats.disabled_at = now;
			stats.disabled_reason = `Disabled automatically after ${stats.consecutive_failures} consecutive failed deliveries`;
			stats.updated_at = now;
		}
	}
}
