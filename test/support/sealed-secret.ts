/** The trigger's stored signing secret in the clear, as a holder of the credential can open it. */
import { deriveSealingKey, open } from '../../nodes/WorkforceManagementTrigger/secrets/sealing';
import { LIVE_KEY } from '../../harness/constants';

export function openNodeSecret(
	nodeData: Record<string, unknown>,
	apiKey: string = LIVE_KEY,
): string | undefined {
	return open(nodeData.secret, deriveSealingKey(apiKey, String(nodeData.endpointId)));
}
