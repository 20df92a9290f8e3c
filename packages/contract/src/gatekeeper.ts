import { z } from 'zod';
import type { ApiOk } from './errors.js';
import { optionalText, requiredText } from './api-params.js';

/**
 * The gatekeeper workflow (SPEC.md sections 3 and 4): a gatekeeper group's configuration, a cloud
 * group's promote list, and nominations, as the server answers them and the web builds the PACS tab
 * and the Process screens on.
 */

/** How a gatekeeper reconciles a nomination with an order: a worklist, a patient C-FIND, or none. */
export const PACS_PROMOTE_PREFERENCES = ['MWL', 'C-Find', 'NONE'] as const;
export type PacsPromotePreference = (typeof PACS_PROMOTE_PREFERENCES)[number];

/** The nomination form's fields (SPEC.md section 3, Nomination form), in the order shown. */
export const NOMINATION_FORM_FIELDS = [
  'order_type',
  'priority',
  'mrn',
  'modality',
  'reason_for_visit',
  'additional_patient_history',
  'exam_external_description',
  'referring_physician',
  'nominated_by',
] as const;

/** The priorities a nomination and a processed exam carry. */
export const NOMINATION_PRIORITIES = ['Routine', 'Priority'] as const;
export type NominationPriority = (typeof NOMINATION_PRIORITIES)[number];

/** One field of a gatekeeper's nomination form: its name (the answer's key), label and required flag. */
export interface NominationFormField {
  name: string;
  label: string;
  required: boolean;
  /** Choices of a select field (priority…); absent for free text. */
  options?: string[];
}

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** The longest answer to one nomination form field. */
export const MAX_NOMINATION_ANSWER = 2000;

const formField = z.object({
  name: z.string().regex(FIELD_NAME, 'lower-case letters, digits and _'),
  label: z.string().trim().min(1).max(200),
  required: z.boolean(),
  options: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
});

/** A gatekeeper group's configuration, as group/config/set takes it and group/get answers it. */
export const gatekeeperConfigSchema = z
  .object({
    customFields: z.array(formField).max(50),
    pacsPromotePreference: z.enum(PACS_PROMOTE_PREFERENCES),
    /** Destinations (uuids) the gatekeeper may send processed exams to; each takes pushes. */
    destinations: z.array(z.string().min(1)).max(50),
    /** The destination searched for orders (MWL) or patients (C-Find); null with NONE. */
    queryDestination: z.string().min(1).nullable(),
  })
  .strict()
  .superRefine((config, ctx) => {
    const names = config.customFields.map((f) => f.name);
    if (new Set(names).size !== names.length) {
      ctx.addIssue({ code: 'custom', path: ['customFields'], message: 'field names must be unique' });
    }
    if (config.pacsPromotePreference !== 'NONE' && !config.queryDestination) {
      ctx.addIssue({ code: 'custom', path: ['queryDestination'], message: 'required for MWL and C-Find' });
    }
  });
export type GatekeeperConfig = z.output<typeof gatekeeperConfigSchema>;

/** A cloud group's configuration: the gatekeeper groups (uuids) its members may nominate to. */
export const cloudGroupConfigSchema = z.object({ promoteTo: z.array(z.string().min(1)).max(50) }).strict();
export type CloudGroupConfig = z.output<typeof cloudGroupConfigSchema>;

/** group/config/set: the group (uuid) and its whole configuration as a JSON object. */
export const groupConfigSetRequest = z.object({
  uuid: requiredText(),
  config: requiredText().transform((raw, ctx) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      // No path: the issue is the `config` parameter's own (INVALID_FIELD config).
      ctx.issues.push({ code: 'custom', message: 'must be a JSON object', input: raw });
      return z.NEVER;
    }
  }),
});

/** A gatekeeper a cloud group may nominate to, as group/get lists it. */
export interface PromoteTarget {
  uuid: string;
  name: string;
  /** The gatekeeper's nomination form; null when it has no configuration ('PACS form not configured'). */
  customFields: NominationFormField[] | null;
}

/** What group/get adds for the gatekeeper workflow. */
export type GroupWorkflowConfig =
  | { type: 'GATEKEEPER'; gatekeeper_config: GatekeeperConfig | null }
  | { type: 'CLOUD'; cloud_config: CloudGroupConfig; promote_targets: PromoteTarget[] }
  | { type: 'LIBRARY' };

const ANSWER_KEY = /^customfield-(.+)$/;

/**
 * study/nominate: the study (uuid), the gatekeeper group (gatekeeper_id) and the form's answers as
 * `customfield-{name}` parameters.
 */
export const studyNominateRequest = z
  .object({ uuid: requiredText(), gatekeeper_id: requiredText() })
  .catchall(z.string())
  .transform((params) => {
    const answers: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      const name = ANSWER_KEY.exec(key)?.[1];
      if (name && typeof value === 'string') answers[name] = value.trim();
    }
    return { uuid: params.uuid, gatekeeperId: params.gatekeeper_id, answers };
  });
export type StudyNominateRequest = z.output<typeof studyNominateRequest>;

/** study/reject: the nomination (the gatekeeper's copy), a reason and a message, both required. */
export const studyRejectRequest = z.object({
  uuid: requiredText(),
  reason: requiredText().pipe(z.string().max(200, 'at most 200 characters')),
  message: requiredText().pipe(
    z.string().max(MAX_NOMINATION_ANSWER, `at most ${MAX_NOMINATION_ANSWER} characters`),
  ),
});

/** study/nomination: the nominator's study, or the gatekeeper's copy, by uuid. */
export const studyNominationRequest = z.object({ uuid: requiredText() });

/**
 * The nominator's status panel (SPEC.md section 4, Nomination UI states). PROCESSING: the
 * gatekeeper sent it (study/process accepted) and its writing and queueing are not done yet; a
 * server stopped meanwhile finishes it on restart (decision 0032).
 */
export const NOMINATION_STATUSES = [
  'EVALUATING',
  'PROCESSING',
  'IS_NOMINATED',
  'NOT_NOMINATED',
  'REJECTED',
  'NOMINATION_SUCCESS',
] as const;
export type NominationStatus = (typeof NOMINATION_STATUSES)[number];

/** One nomination of a study to a gatekeeper group, as the nominator and the gatekeeper read it. */
export interface Nomination {
  uuid: string;
  /** The nominator's study. */
  study_uuid: string;
  /** The gatekeeper group's copy (must_approve=1 until processed); null once cancelled. */
  copy_uuid: string | null;
  gatekeeper_id: string;
  gatekeeper_name: string;
  /** The submission status: true while nominated, false once cancelled. */
  submitted: boolean;
  /** Where it was nominated from (the cloud group's name). */
  source: string;
  nominated_by: string;
  /** ISO 8601. */
  submitted_at: string;
  rejected: boolean;
  rejection_reason: string | null;
  rejection_message: string | null;
  /** The push status of the processed exam (I, N, P, S, F), null before processing. */
  push_status: string | null;
  answers: Record<string, string>;
  status: NominationStatus;
}

export interface NominationAnswer extends ApiOk {
  /** The latest nomination of the study (for a gatekeeper's copy, the one it came from); null if never nominated. */
  nomination: Nomination | null;
  /** Every nomination of the study, newest first (the panel's history). */
  history: Nomination[];
}

/**
 * study/process (SPEC.md section 4, Sending to PACS): the nomination (the gatekeeper's copy, uuid),
 * the destination it goes to, the priority, and the attributes to write into the exam. `order_id`
 * names one of the account's stored orders: its values are written as the Order Comparison screen
 * writes them (`orderWrittenValues`), and recorded (history and audit: "compared with order X"); an
 * attribute typed in the call overrides the order's (the accession number of the C-Find and
 * no-query flows, any other). A worklist answer's id (`mwl:…`, not stored) is only recorded. An
 * attribute absent or blank keeps the exam's value.
 */
export const studyProcessRequest = z
  .object({
    uuid: requiredText(),
    destination_id: requiredText(),
    priority: optionalText().pipe(z.enum(NOMINATION_PRIORITIES).optional()),
    accession_number: optionalText().pipe(z.string().max(16, 'at most 16 characters').optional()),
    order_id: optionalText(),
    patient_name: optionalText().pipe(z.string().max(320, 'too long').optional()),
    patientid: optionalText().pipe(z.string().max(64, 'at most 64 characters').optional()),
    patient_birth_date: optionalText().pipe(
      z
        .string()
        .regex(/^\d{4}-?\d{2}-?\d{2}$/, 'must be a date YYYYMMDD')
        .transform((v) => v.replaceAll('-', ''))
        .optional(),
    ),
    patient_sex: optionalText().pipe(
      z
        .string()
        .transform((v) => v.toUpperCase())
        .pipe(z.enum(['M', 'F', 'O'], { error: 'must be M, F or O' }))
        .optional(),
    ),
    requested_procedure: optionalText().pipe(z.string().max(64, 'at most 64 characters').optional()),
    referring_physician: optionalText().pipe(z.string().max(320, 'too long').optional()),
  })
  .transform(({ uuid, destination_id, priority, order_id, ...attributes }) => ({
    uuid,
    destinationId: destination_id,
    priority: priority ?? 'Routine',
    orderId: order_id ?? null,
    attributes,
  }));
export type StudyProcessRequest = z.output<typeof studyProcessRequest>;

/** study/process's answer: the nomination as it now stands (push_status I, status EVALUATING). */
export interface StudyProcessAnswer extends ApiOk {
  nomination: Nomination;
  /** The push attempt queued to the destination. */
  push_uuid: string;
  /** The attributes written, each with its value before and after. */
  changed: { field: string; from: string; to: string }[];
}

/**
 * study/approve: approve a nomination as it was nominated, sending it unchanged to the gatekeeper
 * group's destination (`destination_id` needed only when the group has several).
 */
export const studyApproveRequest = z.object({ uuid: requiredText(), destination_id: optionalText() });
export type StudyApproveRequest = z.output<typeof studyApproveRequest>;
