import type { SandboxClock } from './clock';
import type { SandboxConfig } from './config';
import type { FaultQueue, HeldAnswers, LoggedRequest } from './control-state';
import type { DeliveryEngine } from './deliveries';
import type { RateLimiter } from './rate-limit';
import type { Store } from './store';

/** Everything a running sandbox holds; the API routes, the control routes and tests reach it through here. */
export interface SandboxState {
	config: SandboxConfig;
	clock: SandboxClock;
	store: Store;
	engine: DeliveryEngine;
	rateLimiter: RateLimiter;
	faults: FaultQueue;
	heldAnswers: HeldAnswers;
	requestLog: LoggedRequest[];
}
