import * as z from 'zod/mini';
import { MAX_INT, MESSAGES, PHONE_PATTERN, PROFILE_MESSAGES } from '@imaging-inbox/contract';

const isPositiveWhole = (raw: string) => /^\d+$/.test(raw.trim()) && Number(raw) > 0;

/**
 * A positive whole number below MAX_INT, typed as text (SPEC.md section 5, request study): the
 * input keeps what the user typed so the messages can tell "not a number" from "too big".
 */
const countField = z.string().check(
  z.refine(isPositiveWhole, MESSAGES.requestHitsMin),
  z.refine((raw) => !isPositiveWhole(raw) || Number(raw) < MAX_INT, MESSAGES.requestMaxExceeded),
);

export const requestStudySchema = z.object({
  email: z
    .string()
    .check(z.trim(), z.minLength(1, MESSAGES.emailRequired), z.email(MESSAGES.requestEmailInvalid)),
  notifyOfLinkUse: z.boolean(),
  maximumHits: countField,
  maximumDuration: countField,
  linkPassword: z.string(),
  studyDescription: z.string(),
  /** Empty, or international form as on the Profile (spaces, dashes and brackets are dropped). */
  mobilePhone: z
    .string()
    .check(
      z.refine((raw) => !raw.trim() || PHONE_PATTERN.test(phoneDigits(raw)), PROFILE_MESSAGES.phoneInvalid),
    ),
  shareDescription: z.string(),
  /** A de-identification profile of the account applied to every upload ('' : none; decision 0071). */
  anonymizationId: z.string(),
});

function phoneDigits(raw: string): string {
  return raw.trim().replace(/[\s()-]/g, '');
}

export type RequestStudyValues = z.infer<typeof requestStudySchema>;

export const REQUEST_STUDY_DEFAULTS: RequestStudyValues = {
  email: '',
  notifyOfLinkUse: false,
  maximumHits: '',
  maximumDuration: '',
  linkPassword: '',
  studyDescription: '',
  mobilePhone: '',
  shareDescription: '',
  anonymizationId: '',
};

/** The link/add parameters of a valid form. */
export function linkAddParams(namespaceId: string, values: RequestStudyValues) {
  return {
    namespace_id: namespaceId,
    action: 'STUDY_UPLOAD',
    email: values.email.trim(),
    max_hits: Number(values.maximumHits.trim()),
    minutes_alive: Number(values.maximumDuration.trim()),
    notify: values.notifyOfLinkUse ? 1 : 0,
    password: values.linkPassword || undefined,
    message: values.studyDescription.trim() || undefined,
    mobile_phone: phoneDigits(values.mobilePhone) || undefined,
    share_description: values.shareDescription.trim() || undefined,
    anonymization_id: values.anonymizationId || undefined,
  };
}
