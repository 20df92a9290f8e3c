import type { Study, StudyCustomFieldValue, StudyLock } from '@imaging-inbox/contract';
import type { Caller } from '../../policies/index.js';
import { studyPermissions } from '../../policies/index.js';
import { LOCK_TTL_MS, lockHolder } from '../../policies/index.js';
import type { StudyListed } from '../../repositories/studies.repository.js';
import type { StudyExtra } from '../../kernel/study-extras.js';
import { withContributedFields } from '../../kernel/study-extras.js';
import type { StudyActivity } from './study-activity.service.js';

/**
 * The answer shape of a study, field by field, so nothing the client should not see (lock owner,
 * search keys, internal links) leaks by accident.
 */
export function presentStudy(
  caller: Caller,
  row: StudyListed,
  extras: {
    tags?: string[];
    customFields?: StudyCustomFieldValue[];
    /** Names of lock holders by user uuid (lockHoldersOf). */
    holders?: LockHolderNames;
    /** What modules add (push attempts, computed fields), through kernel/study-extras.ts. */
    contributed?: StudyExtra | undefined;
    /** The routing rules and HL7 messages that touched it, as the caller may see them. */
    activity?: StudyActivity | undefined;
  },
  engineFqdn: string,
): Study {
  const group = caller.groups.get(row.namespace_id);
  return {
    uuid: row.uuid,
    study_uid: row.study_uid,
    patient_name: row.patient_name,
    patientid: row.patientid,
    patient_sex: row.patient_sex,
    patient_birth_date: row.patient_birth_date,
    patient_age: row.patient_age,
    accession_number: row.accession_number,
    study_description: row.study_description,
    study_date: row.study_date,
    study_time: row.study_time,
    modality: row.modality,
    referring_physician: row.referring_physician,
    source_ae_title: row.source_ae_title,
    destination_ae_title: row.destination_ae_title,
    image_count: row.image_count,
    series_count: row.series_count,
    attachment_count: row.attachment_count,
    size: row.size,
    star: row.star ? 1 : 0,
    thin: row.thin ? 1 : 0,
    tags: extras.tags ?? [],
    ...presentLock(row, extras.holders),
    is_frozen: 0,
    must_approve: row.must_approve ? 1 : 0,
    study_status: row.study_status,
    study_push_status: extras.contributed?.pushStatus?.length
      ? extras.contributed.pushStatus
      : row.push_status
        ? [{ status: row.push_status, updated: new Date(row.updated).toISOString(), destination_name: '' }]
        : [],
    source: row.source,
    share_message: row.share_message,
    storage_namespace: row.namespace_id,
    phi_namespace: row.namespace_id,
    phi_namespace_name: group?.name ?? '',
    engine_fqdn: engineFqdn,
    created: new Date(row.created).toISOString(),
    updated: new Date(row.updated).toISOString(),
    customfields: withContributedFields(extras.customFields, extras.contributed?.customFields),
    permissions: studyPermissions(caller, row),
    viewer_link: `/viewer/#study/${row.namespace_id}/${row.study_uid}/${row.namespace_id}`,
    routes: extras.activity?.routes ?? [],
    hl7: extras.activity?.hl7 ?? [],
  };
}

export type LockHolderNames = ReadonlyMap<string, { first_name: string; last_name: string; email: string }>;

/** The users holding a live lock on any of these studies: whose names the answers need. */
export function lockHoldersOf(rows: StudyListed[], now: number = Date.now()): string[] {
  return rows.map((row) => lockHolder(row, now)).filter((id): id is string => id !== null);
}

/** A lapsed lock answers as no lock at all. */
function presentLock(
  row: StudyListed,
  holders: LockHolderNames | undefined,
): { is_locked: 0 | 1; lock: StudyLock | null } {
  const holder = lockHolder(row);
  if (holder === null || row.locked_at === null) return { is_locked: 0, lock: null };
  const names = holders?.get(holder);
  const name = names ? `${names.first_name} ${names.last_name}`.trim() : '';
  return {
    is_locked: 1,
    lock: {
      user_name: name || names?.email || '',
      user_email: names?.email ?? '',
      since: new Date(row.locked_at).toISOString(),
      expires: new Date(row.locked_at + LOCK_TTL_MS).toISOString(),
    },
  };
}
