/**
 * A sandbox API per test file, reset before every test, with the control-interface calls the
 * engine tests need (request log, fault injection, data set-up through the public API).
 */
import type { IDataObject } from 'n8n-workflow';

import { control } from '../../harness/sandbox-api';
import { SandboxControl } from '../../harness/sandbox-control';
import type { RecordedRequest } from '../../harness/sandbox-control';
import { startSandbox } from '../../sandbox';
import type { FaultRequest } from '../../sandbox/control-state';
import type { DeepPartialConfig, Sandbox } from '../../sandbox';
import { runNode } from './engine/harness';
import type { RunNodeResult, WorkforceCredentials } from './engine/harness';
import { LIVE_KEY } from '../../harness/constants';

process.env.NO_PROXY = '127.0.0.1,localhost';
process.env.no_proxy = '127.0.0.1,localhost';

export class SandboxFixture {
	sandbox!: Sandbox;

	control!: SandboxControl;

	credentials(apiKey = LIVE_KEY): WorkforceCredentials {
		return { apiKey, baseUrl: this.sandbox.baseUrl };
	}

	/** Runs one operation of the action node on `resource` with this sandbox's credentials. */
	async runOperation(
		resource: string,
		operation: string,
		parameters: IDataObject = {},
		inputItems?: IDataObject[],
	): Promise<RunNodeResult> {
		return await runNode({
			parameters: { resource, operation, ...parameters },
			credentials: this.credentials(),
			inputItems,
		});
	}

	/** API requests the sandbox received since the last reset. */
	async requests(): Promise<RecordedRequest[]> {
		return await this.control.requests();
	}

	/** The requests about webhook endpoints since the last reset, as `METHOD path`. */
	async endpointCalls(): Promise<string[]> {
		return (await this.requests())
			.filter((request) => request.path.includes('/webhook-endpoints'))
			.map((request) => `${request.method} ${request.path}`);
	}

	/** How many `method` requests to a path ending in `pathEnd` the sandbox received since the last reset. */
	async requestCount(method: string, pathEnd: string): Promise<number> {
		return (await this.requests()).filter(
			(request) => request.method === method && request.path.endsWith(pathEnd),
		).length;
	}

	async clearRequests(): Promise<void> {
		await this.control.clearRequests();
	}

	async injectFault(fault: FaultRequest): Promise<void> {
		await control(this.sandbox, 'POST', '/faults', fault);
	}

	/**
	 * Creates a member through the public API, which emits member.created, and waits until the
	 * deliveries due by then have been made.
	 */
	async createMemberAndSettle(businessName: string, apiKey = LIVE_KEY): Promise<{ id: string }> {
		const member = await this.api<{ id: string }>(
			'POST',
			'/members',
			{ business_name: businessName },
			apiKey,
		);
		await this.control.settleDeliveries();
		return member;
	}

	/** The signing secret of the first webhook endpoint (the only one, in a trigger test). */
	async endpointSecret(): Promise<string> {
		const [endpoint] = await this.control.endpoints();
		return endpoint.secret as string;
	}

	/** A call to the public API with a key, for setting up records and checking results. */
	async api<T = IDataObject>(
		method: string,
		path: string,
		body?: unknown,
		apiKey = LIVE_KEY,
	): Promise<T> {
		return await this.control.api<T>(apiKey, method, path, body);
	}
}

/** Starts a sandbox for the test file, resets it and clears its request log before each test. */
export function useSandbox(config?: DeepPartialConfig): SandboxFixture {
	const fixture = new SandboxFixture();
	beforeAll(async () => {
		fixture.sandbox = await startSandbox({ config, port: 0 });
		fixture.control = new SandboxControl(fixture.sandbox.origin);
	});
	beforeEach(async () => {
		await fixture.control.reset();
	});
	afterAll(async () => {
		await fixture.sandbox?.close();
	});
	return fixture;
}
