import type { Attachment } from './attachments.js';
import type { StudyPushAttempt } from './destinations.js';
import type { StudyPermissionFlags } from './permissions.js';

/**
 * A study's `study_status`. A study a retrieve (C-MOVE) is filling is RETRIEVING and left out of
 * study/list until the move ends: complete, it becomes NEW; failed part-way, it keeps what arrived
 * as INCOMPLETE (listed, and marked so) until a retrieve of it completes.
 */
export const STUDY_STATUS = {
  new: 'NEW',
  retrieving: 'RETRIEVING',
  /** Made empty by study/add for an upload; listed once study/sync reports the upload done. */
  uploading: 'UPLOADING',
  incomplete: 'INCOMPLETE',
} as const;

/** Studies study/list and study/count leave out: something is still filling them. */
export const UNLISTED_STUDY_STATUSES: readonly string[] = [STUDY_STATUS.retrieving, STUDY_STATUS.uploading];

/** A study as api/v3 answers it (SPEC.md section 3). Dates are YYYYMMDD strings as in DICOM. */
export interface Study {
  uuid: string;
  study_uid: string;
  patient_name: string;
  patientid: string;
  patient_sex: string;
  patient_birth_date: string;
  patient_age: string;
  accession_number: string;
  study_description: string;
  study_date: string;
  study_time: string;
  modality: string;
  referring_physician: string;
  source_ae_title: string;
  destination_ae_title: string;
  image_count: number;
  series_count: number;
  attachment_count: number;
  /** bytes */
  size: number;
  star: 0 | 1;
  thin: 0 | 1;
  tags: string[];
  /** 1 while someone holds a live lock (one lapses 15 minutes after it was taken or renewed). */
  is_locked: 0 | 1;
  /** Who holds the live lock and since when; null when the study is not locked. */
  lock: StudyLock | null;
  is_frozen: 0 | 1;
  must_approve: 0 | 1;
  /** NEW, or INCOMPLETE when the retrieve that filled it from a PACS failed part-way (STUDY_STATUS). */
  study_status: string;
  /**
   * Push attempts, newest first: each one's status, destination and `updated` (ISO); attempts made
   * here also carry their reason, image counts and times (StudyPushAttempt).
   */
  study_push_status: ({ status: string; updated: string; destination_name: string } & Partial<
    Omit<StudyPushAttempt, 'status' | 'updated' | 'destination_name'>
  >)[];
  source: string | null;
  share_message: string | null;
  storage_namespace: string;
  phi_namespace: string;
  phi_namespace_name: string;
  engine_fqdn: string;
  created: string;
  updated: string;
  /**
   * Custom field values: account-defined fields carry the definition's uuid and name; workflow
   * fields (priority, nominated_at, is_process_form_rejected) carry no uuid.
   */
  customfields: StudyCustomFieldValue[];
  permissions: StudyPermissionFlags;
  viewer_link: string;
  /**
   * The routing rules that ran on the study, newest first, each action's run with its outcome (the
   * history's ROUTE events). Only for a caller who may view the account's routing rules
   * (route_view or route_edit); empty for anyone else.
   */
  routes: StudyRouteRun[];
  /**
   * The HL7 messages that touched the study, newest first: results (ORU^R01) of its accession
   * number, for whoever sees the study, and orders (ORM^O01) of it, for a caller with order_view.
   */
  hl7: StudyHl7Message[];
}

/** One run of a routing rule's action on a study. */
export interface StudyRouteRun {
  route_id: string;
  route_name: string;
  /** What started it: upload, harvest, share or manual. */
  trigger: string;
  /** The action's type (share_group, push, webhook, share_code, connection); null when the rule failed before any. */
  action: string | null;
  outcome: 'SUCCESS' | 'FAILURE';
  /** Why it failed, when it did. */
  reason: string | null;
  /** ISO 8601. */
  at: string;
}

/** One HL7 message that touched a study. */
export interface StudyHl7Message {
  /** ORM^O01 (an order of the study's accession number) or ORU^R01 (a result of it). */
  type: 'ORM^O01' | 'ORU^R01';
  /** MSH-10 of the message. */
  control_id: string;
  /** What it did: ORDER_ADD, ORDER_UPDATE or ORDER_CANCEL of the order, HL7_RESULT for a result. */
  event: string;
  /** A result's status (Preliminary, Final); null for an order. */
  status: string | null;
  /** ISO 8601, when it was received. */
  at: string;
}

export interface StudyLock {
  /** The holder's name (their e-mail when they have none). */
  user_name: string;
  user_email: string;
  /** When the lock was taken or last renewed, ISO 8601. */
  since: string;
  /** When it lapses unless renewed, ISO 8601. */
  expires: string;
}

export interface StudyCustomFieldValue {
  uuid?: string;
  name: string;
  value: string | null;
}

/** Sort options of SPEC.md section 9, written field-direction. */
export const STUDY_SORTS = {
  Priority: 'customfield-priority-asc',
  'Newest nomination': 'customfield-nominated_at-desc',
  'Oldest nomination': 'customfield-nominated_at-asc',
  'Newest upload': 'created-desc',
  'Oldest upload': 'created-asc',
  'Oldest exam date': 'study_date-asc',
  'Newest exam date': 'study_date-desc',
  'Name (A to Z)': 'patient_name-asc',
  'Name (Z to A)': 'patient_name-desc',
} as const;
export type StudySortLabel = keyof typeof STUDY_SORTS;
export const DEFAULT_STUDY_SORT = STUDY_SORTS['Newest upload'];
/** Options shown only in gatekeeper Nominations. */
export const NOMINATION_ONLY_SORTS: StudySortLabel[] = ['Priority', 'Newest nomination', 'Oldest nomination'];

/** Sortable study columns accepted by `sort_by`. */
export const STUDY_SORT_FIELDS = [
  'created',
  'updated',
  'study_date',
  'patient_name',
  'patientid',
  'accession_number',
  'modality',
  'size',
  'image_count',
] as const;

/** 43 modality options of the advanced search. */
export const MODALITIES = [
  'CR',
  'CT',
  'US',
  'SR',
  'MR',
  'MG',
  'NM',
  'RF',
  'OT',
  'XA',
  'DX',
  'PT',
  'AU',
  'BI',
  'BMD',
  'DG',
  'DOC',
  'ECG',
  'EPS',
  'ES',
  'GM',
  'HC',
  'HD',
  'IO',
  'IVUS',
  'KO',
  'LS',
  'OCT',
  'OP',
  'OPM',
  'OPT',
  'PR',
  'PX',
  'REG',
  'RG',
  'RTDOSE',
  'RTIMAGE',
  'RTPLAN',
  'RTSTRUCT',
  'SEG',
  'SM',
  'TG',
  'XC',
] as const;

export interface StudyListAnswer {
  status: 'OK';
  studies: Study[];
  page: { number: number; rows: number; more: 0 | 1 };
}

export interface StudyCountAnswer {
  status: 'OK';
  count: number;
}

/** Answer of the single-file upload call, once the file and its index rows are durable. */
export interface ImageUploadAnswer {
  status: 'OK';
  study_uid: string;
  series_uid: string;
  sop_instance_uid: string;
  study_uuid: string;
  duplicate: boolean;
}

/** study/add: the study the upload fills (`created` 0 when one with that UID was already in the group). */
export interface StudyAddAnswer {
  status: 'OK';
  uuid: string;
  study_uid: string;
  created: 0 | 1;
}

/**
 * study/sync: what the group holds against what the uploader sent. The study is listed from now on:
 * NEW when every image sent arrived, INCOMPLETE (marked) when some did not.
 */
export interface StudySyncAnswer {
  status: 'OK';
  uuid: string;
  image_count: number;
  images_sent: number;
  study_status: string;
}

/** One image of a study as the storage `schema` call lists it. */
export interface StudySchemaImage {
  sop_instance_uid: string;
  sop_class_uid: string;
  instance_number: number | null;
  transfer_syntax: string;
  rows: number | null;
  columns: number | null;
  frames: number | null;
  size: number;
}

/** One series of a study with its images (storage `schema`). */
export interface StudySchemaSeries {
  series_uid: string;
  modality: string;
  series_number: number | null;
  series_description: string;
  body_part: string;
  image_count: number;
  images: StudySchemaImage[];
}

/**
 * GET storage/study/{storage_namespace}/{study_uid}/schema: what the storage holds of a study, its
 * series with their images and its attachments (SPEC.md section 7, "Storage").
 */
export interface StudySchemaAnswer {
  status: 'OK';
  uuid: string;
  study_uid: string;
  storage_namespace: string;
  image_count: number;
  series: StudySchemaSeries[];
  attachments: Attachment[];
}
