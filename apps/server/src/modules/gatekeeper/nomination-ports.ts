import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, StudyShareTable, StudyTable } from '../../db/schema.js';
import type { StudyRow } from '../../repositories/studies.repository.js';

type ShareRow = Selectable<StudyShareTable>;

/**
 * What a nomination needs of the shares store: the copy of the study in the gatekeeper group is a
 * share (the sharing module's SharesRepository answers it). Declared here so gatekeeper does not
 * depend on sharing, which depends on studies, which lists a study's nominations.
 */
export interface NominationShares {
  /** Whether the namespace already holds a study with this uid. */
  uidTaken(namespaceId: string, studyUid: string): Promise<boolean>;
  /** Shares `original` into `copyInto`'s namespace as a copy; `also` writes in the same transaction. */
  create(
    share: Omit<ShareRow, 'copy_uuid'>,
    original: StudyRow,
    copyInto: string,
    now: number,
    also: (trx: Kysely<Database>, copyUuid: string | null) => Promise<void>,
  ): Promise<void>;
  find(studyUuid: string, target: { type: 'user' | 'group'; id: string }): Promise<ShareRow | undefined>;
  /** Removes the share and its copy; answers the blob keys the copy held. */
  remove(share: ShareRow): Promise<string[]>;
}

/**
 * What processing a nomination needs to write order attributes into the copy's stored files (the
 * studies module's StudyFileEditor answers it; declared here so gatekeeper does not depend on studies).
 */
export interface NominationFileEditor {
  apply(
    studyUuid: string,
    changes: Updateable<StudyTable>,
    at: Date,
    customFields: Record<string, string | null>,
    reason: 'COERCE',
  ): Promise<{ files: number }>;
}
