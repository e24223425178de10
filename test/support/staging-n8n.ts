/**
 * A staging n8n beside the world's (production's), made as operators make one: its own user
 * folder (with the package copied from production's), port and WEBHOOK_URL; production's
 * encryption key (process.ts gives every instance the same); an owner and a credential of the
 * same organization; production's workflow brought over with `n8n import:workflow`, its id and
 * static data included.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CREDENTIAL_TYPE } from '../../harness/constants';
import {
	copyUserFolder,
	freePort,
	N8nInstance,
	runN8nCli,
	setUpOwner,
	type N8nClient,
	type WorkflowDefinition,
} from '../../harness/n8n';
import { SANDBOX_CREDENTIAL_NAME, type E2eWorld } from '../../harness/world';
import type { CredentialReference } from '../../harness/workflows';

/** A workflow as the public API exports it. */
export type ExportedWorkflow = WorkflowDefinition & { id: string } & Record<string, unknown>;

export class StagingN8n {
	private constructor(
		readonly n8n: N8nInstance,
		readonly client: N8nClient,
		readonly credential: CredentialReference,
		private readonly folder: string,
	) {}

	static async start(production: E2eWorld): Promise<StagingN8n> {
		const folder = mkdtempSync(join(tmpdir(), 'wfm-e2e-staging-'));
		try {
			const port = await freePort();
			const n8n = await N8nInstance.start({
				userFolder: copyUserFolder(production.n8n.userFolder, folder),
				port,
				env: { WEBHOOK_URL: `http://127.0.0.1:${port}/` },
				editor: production.n8n.editor,
			});
			try {
				const { client } = await setUpOwner(n8n);
				const credential = await client.createCredential({
					name: SANDBOX_CREDENTIAL_NAME,
					type: CREDENTIAL_TYPE,
					data: { apiKey: production.apiKey, baseUrl: production.sandbox.baseUrl },
				});
				return new StagingN8n(n8n, client, credential, folder);
			} catch (error) {
				await n8n.stop();
				throw error;
			}
		} catch (error) {
			rmSync(folder, { recursive: true, force: true });
			throw error;
		}
	}

	/** `n8n import:workflow` of production's export (inactive), its nodes using staging's credential. */
	async importWorkflow(exported: ExportedWorkflow): Promise<void> {
		const { id, name, nodes, connections, settings, staticData, versionId } = exported;
		const withStagingCredential = nodes.map((node) =>
			node.credentials ? { ...node, credentials: { [CREDENTIAL_TYPE]: this.credential } } : node,
		);
		const file = join(this.folder, `workflow-${id}.json`);
		writeFileSync(
			file,
			JSON.stringify([
				{
					id,
					name,
					nodes: withStagingCredential,
					connections,
					settings,
					staticData,
					versionId,
					active: false,
				},
			]),
		);
		await runN8nCli(this.n8n.userFolder, ['import:workflow', `--input=${file}`]);
	}

	async stop(): Promise<void> {
		try {
			await this.n8n.stop();
		} finally {
			rmSync(this.folder, { recursive: true, force: true });
		}
	}
}
