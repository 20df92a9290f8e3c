import { z } from 'zod';
import { intParam, rawText } from './api-params.js';
import { MAX_PAGE_ROWS, STUDY_PAGE_ROWS } from './limits.js';

/**
 * The vocabulary of study/list and study/count: `filter.<field>.<condition>` keys, `sort_by`
 * fields, push status codes and the gatekeeper nomination states. The server refuses what is not
 * listed here; the web builds its filters from the same names.
 */

/** Text columns filtered with `like` or `equals`. */
export const STUDY_TEXT_FILTER_FIELDS = [
  'patient_name',
  'patientid',
  'study_description',
  'referring_physician',
  'accession_number',
  'study_uid',
  'uuid',
  'source_ae_title',
  'destination_ae_title',
  'patient_sex',
  'patient_birth_date',
] as const;
export type StudyTextFilterField = (typeof STUDY_TEXT_FILTER_FIELDS)[number];

/** Every `filter.<field>` study/list accepts (custom fields come as `filter.customfield-<name>`). */
export const STUDY_FILTER_FIELDS = [
  ...STUDY_TEXT_FILTER_FIELDS,
  'star',
  'thin',
  'modality',
  'tags',
  'study_date',
  'created',
  'phi_namespace',
  'storage_namespace',
  'source',
  'has_direct_shares',
  'deleted',
  'must_approve',
  'study_push_status',
  'timezone',
] as const;
export type StudyFilterField = (typeof STUDY_FILTER_FIELDS)[number];

export const STUDY_FILTER_CONDITIONS = ['equals', 'like', 'in', 'ge', 'le', 'gt', 'lt', 'is_null'] as const;
export type StudyFilterCondition = (typeof STUDY_FILTER_CONDITIONS)[number];

/** A study filter key as sent: `filter.patient_name.like`, `filter.timezone`, `filter.SMART_SEARCH`… */
export type StudyFilterKey =
  | `filter.${StudyFilterField}.${StudyFilterCondition}`
  | 'filter.timezone'
  | 'filter.SMART_SEARCH'
  | `filter.customfield-${string}`;
/** The filters of one study/list request. */
export type StudyFilters = Partial<Record<StudyFilterKey, string>>;

/**
 * A study's push status codes (SPEC.md section 4): I, N, P queued or under way; S sent; F failed;
 * R rejected by the gatekeeper (a push attempt itself is never R: destinations.ts PushStatus).
 */
export const PUSH_STATUSES = ['I', 'N', 'P', 'S', 'F', 'R'] as const;
export type StudyPushStatus = (typeof PUSH_STATUSES)[number];

/** The gatekeeper workflow states of a nominated study. */
export const NOMINATION_STATES = ['nominations', 'queued', 'rejected', 'completed', 'failed'] as const;
export type NominationState = (typeof NOMINATION_STATES)[number];

/** Which push statuses put a study in each state after nomination (Nominations is must_approve=1). */
export const PUSH_STATUSES_OF_STATE = {
  queued: ['I', 'N', 'P'],
  completed: ['S'],
  failed: ['F'],
  rejected: ['R'],
} as const satisfies Record<Exclude<NominationState, 'nominations'>, readonly StudyPushStatus[]>;

/**
 * study/list and study/count parameters. The `filter.*` keys are kept as sent, for the server's
 * study query parser (it refuses unknown fields and conditions) and for the search audit event.
 */
export const studySearchRequest = z
  .object({
    'page.rows': intParam(STUDY_PAGE_ROWS, 1, MAX_PAGE_ROWS),
    'page.number': intParam(1, 1, 1_000_000),
    sort_by: rawText(),
    timezone: rawText(),
    /** With 1, study/list's page also carries the total. */
    with_count: z
      .string()
      .optional()
      .transform((raw) => raw === '1'),
  })
  .catchall(z.string())
  .transform((params) => {
    const filters: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      if (key.startsWith('filter.') && typeof value === 'string') filters[key] = value;
    }
    return {
      filters,
      sortBy: params.sort_by,
      timeZone: filters['filter.timezone'] ?? params.timezone,
      rows: params['page.rows'],
      page: params['page.number'],
      withCount: params.with_count,
    };
  });
export type StudySearchRequest = z.output<typeof studySearchRequest>;
