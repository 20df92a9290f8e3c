import { DomainError } from '../../domain/errors.js';
import type { IngestService } from '../../ingest/ingest.service.js';
import type { DicomwebRepository } from '../../repositories/dicomweb.repository.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Deidentifier } from './deidentifier.js';

/** Modalities of the series a study's reports are stored as: they follow only when the profile keeps attachments. */
const REPORT_MODALITIES = new Set(['SR', 'DOC']);

export interface DeidentifiedCopy {
  copyUuid: string;
  studyUid: string;
  profile: { uuid: string; name: string };
  instances: number;
  refusedBurnedIn: number;
  refusedUnreadable: number;
  reportsLeftOut: number;
}

/**
 * A study shared into a de-identifying group (issue 33): each instance de-identified by the group's
 * profile and stored through the one ingest pipeline into the group as a new study (new UIDs, the
 * same within the account each time); the original is never modified. Report series do not follow
 * unless the profile keeps attachments; files that may carry burned-in text are left out unless it
 * keeps them, and if nothing is left the share is refused (NOT_PERMITTED `burned_in_text`).
 */
export class DeidentifiedCopies {
  constructor(
    private readonly deps: {
      deidentifier: Deidentifier;
      dicomweb: DicomwebRepository;
      blobs: BlobStore;
      ingest: IngestService;
    },
  ) {}

  /** The profile that de-identifies what is shared into the group, if any. */
  profileOfGroup(accountId: string, groupUuid: string) {
    return this.deps.deidentifier.ofGroup(accountId, groupUuid);
  }

  /** Would the copy already be in the group (the same source always maps to the same Study Instance UID)? */
  async copyStudyUid(row: StudyRow, profileId: string): Promise<string> {
    return this.deps.deidentifier.uidFor(row.account_id, row.study_uid, profileId);
  }

  async copy(
    row: StudyRow,
    target: { namespaceId: string },
    profileId: string,
    by: { userId: string; ip?: string | null },
  ): Promise<DeidentifiedCopy> {
    const bound = await this.deps.deidentifier.bind(row.account_id, profileId);
    const series = await this.deps.dicomweb.seriesOfStudy(row.uuid, {});
    const instances = await this.deps.dicomweb.instances(row.uuid, {});
    const out = { instances: 0, refusedBurnedIn: 0, refusedUnreadable: 0, reportsLeftOut: 0 };
    let copyUuid = '';
    let studyUid = '';
    // Each copy is stored as soon as it is made, so a study of any size holds one file in memory;
    // a refused file is never stored, so a study whose every file is refused stores nothing.
    for (const s of series) {
      const files = instances.filter((i) => i.series_uuid === s.uuid);
      if (REPORT_MODALITIES.has(s.modality) && !bound.profile.keep_attachments) {
        out.reportsLeftOut += files.length;
        continue;
      }
      for (const file of files) {
        const applied = bound.apply(await this.deps.blobs.read(file.blob_key));
        if (applied.refused) {
          if (applied.reason === 'burned_in') out.refusedBurnedIn += 1;
          else out.refusedUnreadable += 1;
          continue;
        }
        const bytes = applied.result.bytes;
        const result = await this.deps.ingest.ingestBytes(
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          { accountId: row.account_id, namespaceId: target.namespaceId },
          {
            kind: 'deidentified_share',
            userId: by.userId,
            ip: by.ip ?? null,
            detail: { source_study: row.uuid },
          },
        );
        copyUuid = result.studyUuid;
        studyUid = result.parsed.studyInstanceUid;
        out.instances += 1;
      }
    }
    if (!out.instances)
      throw new DomainError('NOT_PERMITTED', 'burned_in_text', { refused: out.refusedBurnedIn });
    return { copyUuid, studyUid, profile: { uuid: bound.profile.uuid, name: bound.profile.name }, ...out };
  }
}
