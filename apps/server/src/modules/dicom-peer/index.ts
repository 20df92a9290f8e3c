/** The dicom-peer module's one door: the inbox as a query/retrieve peer of registered nodes (see README.md). */
import type { Kysely } from 'kysely';
import type { AuditService } from '../../audit/audit.service.js';
import type { Database } from '../../db/schema.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { QueryIndexRepository } from './query-index.repository.js';
import { QueryRetrieveService } from './query-retrieve.service.js';

export { QueryRetrieveService } from './query-retrieve.service.js';

/** What the module needs of the kernel. */
export interface DicomPeerKernel {
  db: Kysely<Database>;
  nodes: DicomNodesRepository;
  accounts: AccountsRepository;
  blobs: BlobStore;
  audit: AuditService;
  /** Our AE title (DICOM_AET): the Retrieve AE Title of every match. */
  ourAeTitle: string;
}

/** The query/retrieve handler the DICOM listener is given (dimse/query-retrieve.ts). */
export function createDicomPeerModule(kernel: DicomPeerKernel): { queries: QueryRetrieveService } {
  return {
    queries: new QueryRetrieveService({
      nodes: kernel.nodes,
      accounts: kernel.accounts,
      index: new QueryIndexRepository(kernel.db),
      blobs: kernel.blobs,
      audit: kernel.audit,
      ourAeTitle: kernel.ourAeTitle,
    }),
  };
}
