import type { Operation } from './handlers';
import { organizationOperations } from './organization';
import { memberOperations } from './member';
import { customerOperations } from './customer';
import { siteOperations } from './site';
import { webhookEndpointOperations } from './webhookEndpoint';
import { webhookDeliveryOperations } from './webhookDelivery';
import { webhookEventOperations } from './webhookEvent';

export type { Operation, OperationContext } from './handlers';

/** Every operation of the simulated API, one table per resource. */
export const OPERATIONS: Operation[] = [
	...organizationOperations,
	...memberOperations,
	...customerOperations,
	...siteOperations,
	...webhookEndpointOperations,
	...webhookDeliveryOperations,
	...webhookEventOperations,
];
