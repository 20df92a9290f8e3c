import type { IngestSource } from '../../src/ingest/ingest.service.js';
import type { IndexTarget } from '../../src/repositories/ingest.repository.js';
import type { TestServer } from './test-server.js';

/** What a C-STORE from a known peer brings to ingest: no user, the file its own record. */
export const cstoreSource = (): IngestSource => ({
  kind: 'cstore',
  userId: null,
  fileIsRecord: true,
  auditedStudies: new Set(),
});

/** Where the demo gateway's instances are stored: its node's account and group. */
export async function gatewayTarget(server: TestServer): Promise<IndexTarget> {
  const node = (await server.ctx.repos.dicomNodes.findByAeTitle('DEMO_GATEWAY'))!;
  return { accountId: node.account_id, namespaceId: node.namespace_id, sourceAeTitle: 'DEMO_GATEWAY' };
}
