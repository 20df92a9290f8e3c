import { z } from 'zod';
import { flagParam, pageParams, rawText, requiredText } from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';

/**
 * De-identification profiles of an account (anonymization/*, Ambra's names; issue 33, decisions
 * 0063 and 0067): PS3.15 Annex E's Basic Profile with the options chosen, and per-field rules.
 */

/** The Annex E options a profile may choose (the engine's names; docs/privacy.md says what each does). */
export const ANONYMIZATION_OPTIONS = [
  'retainLongitudinalModifiedDates',
  'retainPatientCharacteristics',
  'retainDeviceIdentity',
  'retainUids',
  'cleanDescriptors',
  'cleanStructuredContent',
] as const;
export type AnonymizationOption = (typeof ANONYMIZATION_OPTIONS)[number];

export const ANONYMIZATION_RULE_ACTIONS = ['keep', 'remove', 'empty', 'replace', 'rewrite'] as const;
export type AnonymizationRuleAction = (typeof ANONYMIZATION_RULE_ACTIONS)[number];

export const ANONYMIZATION_NAME_MAX_LENGTH = 100;
export const ANONYMIZATION_MAX_RULES = 50;
/** A replacement value (the engine cuts it further to the attribute's VR). */
export const ANONYMIZATION_VALUE_MAX_LENGTH = 1024;
/** A rewrite's pattern (RE2, decision 0053). */
export const ANONYMIZATION_PATTERN_MAX_LENGTH = 256;
/** Groups one profile may apply to. */
export const ANONYMIZATION_MAX_GROUPS = 50;
/** Profiles an account may hold. */
export const ANONYMIZATION_MAX_PROFILES = 100;

/** A per-field rule: overrides Table E.1-1 for its tag (`ggggeeee`, hex) wherever the tag occurs. */
export type AnonymizationRule =
  | { tag: string; action: 'keep' | 'remove' | 'empty' }
  | { tag: string; action: 'replace'; value: string }
  | { tag: string; action: 'rewrite'; pattern: string; replacement: string };

/**
 * What still applies a profile: anonymization/delete answers IN_USE `anonymization` with
 * `error_data: { uses }` (at most 10 of each type) and deletes nothing.
 */
export interface AnonymizationProfileUse {
  type: 'group' | 'destination' | 'link' | 'routing_rule' | 'push';
  uuid: string;
  /** The group's, destination's or rule's name; a request link's group; a queued push's destination. */
  name: string;
}

export interface AnonymizationProfile {
  uuid: string;
  account_id: string;
  name: string;
  options: AnonymizationOption[];
  /**
   * 1: instances that may carry burned-in text (Burned In Annotation YES, US, secondary captures)
   * pass to a de-identified target; 0 (default): they are refused and the refusal is shown.
   */
  keep_burned_in: 0 | 1;
  /** 1: a study's attachments and reports follow it into a de-identifying group. */
  keep_attachments: 0 | 1;
  rules: AnonymizationRule[];
  /** Groups of the account whose incoming shares are stored de-identified by this profile. */
  groups: string[];
  created: number;
  updated: number;
}

const tag = z
  .string()
  .trim()
  .regex(/^[0-9A-Fa-f]{8}$/, 'a tag as 8 hex digits (ggggeeee)')
  .transform((t) => t.toUpperCase());
const bounded = (max: number) => z.string().max(max, `at most ${max} characters`);

export const anonymizationRuleSchema = z.discriminatedUnion('action', [
  z.object({ tag, action: z.enum(['keep', 'remove', 'empty']) }).strict(),
  z.object({ tag, action: z.literal('replace'), value: bounded(ANONYMIZATION_VALUE_MAX_LENGTH) }).strict(),
  z
    .object({
      tag,
      action: z.literal('rewrite'),
      pattern: bounded(ANONYMIZATION_PATTERN_MAX_LENGTH).min(1, 'is required'),
      replacement: bounded(ANONYMIZATION_VALUE_MAX_LENGTH),
    })
    .strict(),
]);
export const anonymizationRulesSchema = z
  .array(anonymizationRuleSchema)
  .max(ANONYMIZATION_MAX_RULES, `at most ${ANONYMIZATION_MAX_RULES} rules`);
export const anonymizationOptionsSchema = z.array(z.enum(ANONYMIZATION_OPTIONS));

/** The fields add and set take, as sent (JSON text for options and rules; the service checks each). */
const profileFields = {
  name: rawText(),
  options: rawText(),
  rules: rawText(),
  keep_burned_in: flagParam(),
  keep_attachments: flagParam(),
  /** JSON array (or comma list) of group uuids; a group is in one profile at most. */
  groups: rawText(),
};

export const anonymizationListRequest = z
  .object({ account_id: requiredText() })
  .extend(pageParams(MAX_PAGE_ROWS));
export const anonymizationAddRequest = z.object({ account_id: requiredText(), ...profileFields });
export const anonymizationSetRequest = z.object({ uuid: requiredText(), ...profileFields });
