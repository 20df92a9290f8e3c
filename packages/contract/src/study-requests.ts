import { z } from 'zod';
import {
  intParam,
  listParam,
  objectClass,
  pageParams,
  optionalText,
  parseFlag,
  reportInvalid,
  reportMissing,
  requiredText,
} from './api-params.js';
import { CUSTOM_FIELD_OBJECTS } from './custom-fields.js';
import type { CustomFieldObject } from './custom-fields.js';
import { ATTACHMENT_PAGE_ROWS } from './attachments.js';
import { MAX_PAGE_ROWS, TAG_LOOKUP_ROWS } from './limits.js';

/** Request schemas of the study calls the web sends (api-params.ts explains the codecs). */

/** Every call that names one study by `uuid`. */
export const studyUuidRequest = z.object({ uuid: requiredText() });

/** A list of one study's items (shares, sends, pushes): the study's `uuid` and the page. */
export const studyItemListRequest = studyUuidRequest.extend(pageParams(MAX_PAGE_ROWS));

/**
 * A study as Ambra's SDK names it: its uuid (`uuid`, or `study_id` where the SDK's `uuid` names a
 * node), or its storage triplet `study_uid` + `storage_namespace` (+ `phi_namespace`).
 */
export type NamedStudy =
  | { by: 'uuid'; uuid: string }
  | { by: 'storage'; namespace: string; studyUid: string; phiNamespace: string | undefined };

const studyRefFields = {
  uuid: optionalText(),
  study_id: optionalText(),
  study_uid: optionalText(),
  storage_namespace: optionalText(),
  phi_namespace: optionalText(),
};

function studyRefOf(
  p: {
    uuid?: string | undefined;
    study_id?: string | undefined;
    study_uid?: string | undefined;
    storage_namespace?: string | undefined;
    phi_namespace?: string | undefined;
  },
  ctx: z.core.$RefinementCtx<unknown>,
): NamedStudy {
  const uuid = p.uuid ?? p.study_id;
  if (uuid) return { by: 'uuid', uuid };
  const namespace = p.storage_namespace ?? p.phi_namespace;
  if (!p.study_uid || !namespace) return reportMissing(ctx, 'uuid');
  return { by: 'storage', namespace, studyUid: p.study_uid, phiNamespace: p.phi_namespace };
}

/** A call about one study, named by uuid or storage triplet (study/get, study/sync…). */
export const namedStudyRequest = z.object(studyRefFields).transform((p, ctx) => studyRefOf(p, ctx));

/**
 * study/exists (Ambra's parameters): by `uuid`, by storage triplet, or by `study_uid` and
 * `account_id` (the caller's first account by default); the spec's `studyUID`/`accountUuid` too.
 */
export const studyExistsRequest = z
  .object({
    ...studyRefFields,
    studyUID: optionalText(),
    accountUuid: optionalText(),
    account_id: optionalText(),
  })
  .transform((p, ctx) => {
    const studyUid = p.study_uid ?? p.studyUID;
    if (!p.uuid && !p.study_id && studyUid && !(p.storage_namespace ?? p.phi_namespace))
      return { by: 'account' as const, studyUid, accountId: p.accountUuid ?? p.account_id };
    return studyRefOf({ ...p, study_uid: studyUid }, ctx);
  });

/** The study attributes study/set edits (the Exchange form). */
export const STUDY_EDITABLE_FIELDS = [
  'patient_name',
  'patientid',
  'study_description',
  'referring_physician',
  'patient_sex',
  'patient_birth_date',
  'accession_number',
  'study_date',
  'study_time',
] as const;
export type StudyEditableField = (typeof STUDY_EDITABLE_FIELDS)[number];

const CUSTOM_FIELD_KEY = /^customfield-(.+)$/;

/**
 * study/set: the study (`uuid`, or Ambra's `study_id`), the attributes sent (a blank value clears
 * one) and `customfield-{uuid}` values, kept with the parameter name that carried them.
 */
export const studySetRequest = z
  .object({ uuid: optionalText(), study_id: optionalText() })
  .catchall(z.string())
  .transform((params) => {
    const fields: Partial<Record<StudyEditableField, string>> = {};
    for (const field of STUDY_EDITABLE_FIELDS) {
      const value = params[field];
      if (typeof value === 'string') fields[field] = value;
    }
    const customFields = Object.entries(params).flatMap(([key, value]) => {
      const uuid = CUSTOM_FIELD_KEY.exec(key)?.[1];
      return uuid && typeof value === 'string' ? [{ key, uuid, value }] : [];
    });
    return { uuid: params.uuid ?? params.study_id, fields, customFields };
  });
export type StudySetRequest = z.output<typeof studySetRequest>;
export type CustomFieldValueParam = StudySetRequest['customFields'][number];

/** customfield/list: an account's definitions, optionally of one object kind or some uuids. */
export const customFieldListRequest = z
  .object({
    account_id: requiredText(),
    'filter.object.equals': optionalText(),
    'filter.uuid.in': listParam(),
    ...pageParams(MAX_PAGE_ROWS),
  })
  // Any other filter is read by the grammar every list shares (list-filters.ts).
  .superRefine((params, ctx) => {
    const object = params['filter.object.equals'];
    if (object && !(CUSTOM_FIELD_OBJECTS as readonly string[]).includes(objectClass(object))) {
      ctx.addIssue({
        code: 'custom',
        path: ['filter.object.equals'],
        message: `must be one of ${CUSTOM_FIELD_OBJECTS.join(', ')}`,
      });
    }
  })
  .transform((params) => ({
    accountId: params.account_id,
    object:
      params['filter.object.equals'] && (objectClass(params['filter.object.equals']) as CustomFieldObject),
    uuids: params['filter.uuid.in'],
    pageNumber: params['page.number'],
    pageRows: params['page.rows'],
  }));
export type CustomFieldListRequest = z.output<typeof customFieldListRequest>;

/**
 * study/delete and study/restore: a uuid, or the storage-style pair of a namespace
 * (phi_namespace or storage_namespace) and a study_uid.
 */
export const studyRefRequest = z
  .object({
    uuid: optionalText(),
    phi_namespace: optionalText(),
    storage_namespace: optionalText(),
    study_uid: optionalText(),
  })
  .transform((p, ctx): { uuid: string } | { namespace: string; studyUid: string } => {
    if (p.uuid) return { uuid: p.uuid };
    const namespace = p.phi_namespace ?? p.storage_namespace;
    if (namespace && p.study_uid) return { namespace, studyUid: p.study_uid };
    return reportMissing(ctx, 'uuid');
  });
export type StudyRef = z.output<typeof studyRefRequest>;

/** tag/add and tag/delete: only studies carry tags. */
export const tagChangeRequest = z
  .object({ object: requiredText(), object_id: requiredText(), tag: requiredText() })
  .transform((p, ctx) =>
    objectClass(p.object) === 'study'
      ? { studyUuid: p.object_id, tag: p.tag }
      : reportInvalid(ctx, 'object', 'must be study'),
  );

/** study/star: star is 0 or 1. */
export const studyStarRequest = z
  .object({ uuid: requiredText(), star: requiredText() })
  .transform((p, ctx) => {
    const star = parseFlag(p.star);
    return star === 0 || star === 1 ? { uuid: p.uuid, star } : reportInvalid(ctx, 'star', 'must be 0 or 1');
  });

/** tag/list: the caller's tags that match, for the tag field's suggestions. */
export const tagListRequest = z
  .object({
    ...pageParams(TAG_LOOKUP_ROWS),
    'filter.tag.like': optionalText(),
    /** Ambra's clients name the class (`object=Study`); only studies carry tags. */
    object: optionalText(),
  })
  .superRefine((p, ctx) => {
    if (p.object && objectClass(p.object) !== 'study') reportInvalid(ctx, 'object', 'must be study');
  });

/** audit/object: a study's history, a page at a time, optionally of some actions only. */
export const auditObjectRequest = z
  .object({
    uuid: requiredText(),
    rows: intParam(50, 1, 500),
    number: intParam(1, 1, 100_000),
    // Ambra's clients page it as every list: page.rows / page.number win over rows / number.
    'page.rows': z.string().optional(),
    'page.number': z.string().optional(),
    // `filter.action.in` / `.equals` are read by the shared grammar (LIST_FILTERS['audit/object']).
    reverse: z
      .string()
      .optional()
      .transform((raw) => raw === '1'),
  })
  .transform(({ 'page.rows': pageRows, 'page.number': pageNumber, ...p }, ctx) => {
    const rows = pageRows ? Number(pageRows) : p.rows;
    const number = pageNumber ? Number(pageNumber) : p.number;
    if (!Number.isInteger(rows) || rows < 1 || rows > MAX_PAGE_ROWS) {
      return reportInvalid(ctx, 'page.rows', `must be an integer from 1 to ${MAX_PAGE_ROWS}`);
    }
    if (!Number.isInteger(number) || number < 1 || number > 100_000) {
      return reportInvalid(ctx, 'page.number', 'must be an integer from 1 to 100000');
    }
    return { ...p, rows, number };
  });

/**
 * study/viewer/token: the study by `uuid`, or by `storage_namespace` (or `phi_namespace`) and
 * `study_uid`.
 */
export const viewerTokenRequest = z
  .object({
    uuid: optionalText(),
    storage_namespace: optionalText(),
    phi_namespace: optionalText(),
    study_uid: optionalText(),
  })
  .transform((p, ctx) => {
    if (p.uuid) return { by: 'uuid' as const, uuid: p.uuid };
    if (!p.study_uid) return reportMissing(ctx, 'study_uid');
    const namespace = p.storage_namespace ?? p.phi_namespace;
    if (!namespace) return reportMissing(ctx, 'storage_namespace');
    return { by: 'storage' as const, namespace, studyUid: p.study_uid };
  });

/** study/attachment/list: a page of a study's attachments. */
export const attachmentListRequest = z.object({
  uuid: requiredText(),
  ...pageParams(ATTACHMENT_PAGE_ROWS, 100),
});

const TIMING_EVENT = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * study/timing/event: a client's timing of something it did with a study (`event`, a name such as
 * `viewer_open`, and how long it took in `timing` milliseconds), kept in the study's audit trail.
 */
export const studyTimingEventRequest = z
  .object({ ...studyRefFields, event: requiredText(), timing: intParam(0, 0, 2_147_483_647) })
  .transform((p, ctx) =>
    TIMING_EVENT.test(p.event)
      ? { study: studyRefOf(p, ctx), event: p.event, timing: p.timing }
      : reportInvalid(ctx, 'event', 'letters, digits and _ . : - only, up to 64'),
  );
