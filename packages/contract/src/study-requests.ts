import { z } from 'zod';
import { listParam, optionalText, requiredText } from './api-params.js';
import { CUSTOM_FIELD_OBJECTS } from './custom-fields.js';

/** Request schemas of the study calls the web sends (api-params.ts explains the codecs). */

/** Every call that names one study by `uuid`. */
export const studyUuidRequest = z.object({ uuid: requiredText() });

/** study/exists: does a Study Instance UID exist in an account (the caller's first by default). */
export const studyExistsRequest = z.object({
  studyUID: requiredText(),
  accountUuid: optionalText(),
  account_id: optionalText(),
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

const CUSTOM_FIELD_LIST_FILTERS = new Set(['filter.object.equals', 'filter.uuid.in']);

/** customfield/list: an account's definitions, optionally of one object kind or some uuids. */
export const customFieldListRequest = z
  .object({
    account_id: requiredText(),
    'filter.object.equals': optionalText(),
    'filter.uuid.in': listParam(),
  })
  .catchall(z.string())
  .superRefine((params, ctx) => {
    for (const key of Object.keys(params)) {
      if (key.startsWith('filter.') && !CUSTOM_FIELD_LIST_FILTERS.has(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'unknown filter' });
        return;
      }
    }
    const object = params['filter.object.equals'];
    if (object && !(CUSTOM_FIELD_OBJECTS as readonly string[]).includes(object)) {
      ctx.addIssue({
        code: 'custom',
        path: ['filter.object.equals'],
        message: `must be one of ${CUSTOM_FIELD_OBJECTS.join(', ')}`,
      });
    }
  })
  .transform((params) => ({
    accountId: params.account_id,
    object: params['filter.object.equals'] as (typeof CUSTOM_FIELD_OBJECTS)[number] | undefined,
    uuids: params['filter.uuid.in'],
  }));
export type CustomFieldListRequest = z.output<typeof customFieldListRequest>;
