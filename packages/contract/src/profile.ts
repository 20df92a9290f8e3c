/**
 * The signed-in user's profile (SPEC "Profile", calls user/get and user/set) and the password change
 * (user/password/change). One rule set, checked by the form on every change and again by the server.
 */

import { SUPPORTED_LANGUAGES, type Language } from './languages.js';

/** SPEC section 9 "Date formats", the first being the default. */
export const DATE_FORMATS = [
  'MM-DD-YYYY',
  'YYYY-MM-DD',
  'DD-MM-YYYY',
  'YYYY/MM/DD',
  'MM/DD/YYYY',
  'DD/MM/YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DEFAULT_DATE_FORMAT: DateFormat = 'MM-DD-YYYY';
/** The date format is a preference stored apart from the profile, under this settings key. */
export const DATE_FORMAT_SETTING = 'user_default_date_format';

export function isDateFormat(value: string | null | undefined): value is DateFormat {
  return (DATE_FORMATS as readonly string[]).includes(value ?? '');
}

/** A calendar day written in the user's format; parts are already zero-padded strings. */
export function formatDay(year: string, month: string, day: string, format: DateFormat): string {
  return format.replace('YYYY', year).replace('MM', month).replace('DD', day);
}

/** + then a non-zero digit then 1 to 14 digits (E.164). */
export const PHONE_PATTERN = /^\+[1-9]\d{1,14}$/;
/** A share code is what outsiders type to send to this user: 4 to 32 letters, digits and dashes. */
export const SHARE_CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{3,31}$/;
export const NAME_MAX_LENGTH = 64;
export const SHARE_DESCRIPTION_MAX_LENGTH = 500;

export const PROFILE_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  nameTooLong: `At most ${NAME_MAX_LENGTH} characters`,
  phoneInvalid: 'Please enter a valid phone number, for example +14155552671',
  timeZoneInvalid: 'Invalid time zone',
  dateFormatRequired: 'Date format is required',
  shareCodeInvalid: 'Use 4 to 32 letters, digits or dashes',
  shareCodeTaken: 'This share code is already in use',
  shareDescriptionTooLong: `At most ${SHARE_DESCRIPTION_MAX_LENGTH} characters`,
  languageInvalid: `Choose one of ${SUPPORTED_LANGUAGES.join(', ')}, or nothing to follow the browser`,
} as const;

/** What user/get answers. */
export interface UserProfile {
  uuid: string;
  email: string;
  first: string;
  last: string;
  /** An IANA zone such as Europe/Berlin, or null for the browser's own zone. */
  time_zone: string | null;
  mobile_phone: string | null;
  share_code: string | null;
  share_description: string | null;
  /**
   * Whether the user may change their share code and description (user_modify_sharecode in the
   * account whose sends it receives); user/set refuses a change otherwise.
   */
  share_code_editable?: boolean;
  date_format: DateFormat;
  /** The chosen language, or '' to follow the browser (e-mails then use the account's or English). */
  language: Language | '';
}

export type ProfileFields = Pick<
  UserProfile,
  'first' | 'last' | 'time_zone' | 'mobile_phone' | 'share_code' | 'share_description'
> & { date_format: string };

export type ProfileField = keyof ProfileFields;

/**
 * What user/set may change. The language is chosen apart from the Profile form (its own picker), so
 * it is not one of the form's fields: a form save leaves it as it is.
 */
export type ProfileChanges = Partial<ProfileFields> & { language?: string };
export const PROFILE_FIELD_NAMES = [
  'first',
  'last',
  'time_zone',
  'mobile_phone',
  'share_code',
  'share_description',
  'date_format',
] as const satisfies readonly ProfileField[];

/** Whether a runtime knows the IANA zone (Node and browsers both carry the zone database). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Trims the fields and turns blank optional ones into null, as both sides store them. */
export function normalizeProfile(values: ProfileFields): ProfileFields {
  const optional = (value: string | null) => (value?.trim() ? value.trim() : null);
  return {
    first: values.first.trim(),
    last: values.last.trim(),
    time_zone: optional(values.time_zone),
    mobile_phone: optional(values.mobile_phone)?.replace(/[\s()-]/g, '') ?? null,
    share_code: optional(values.share_code)?.toUpperCase() ?? null,
    share_description: optional(values.share_description),
    date_format: values.date_format.trim(),
  };
}

/** The first problem of each field of a normalised profile; an empty object when it is valid. */
export function profileProblems(values: ProfileFields): Partial<Record<ProfileField, string>> {
  const problems: Partial<Record<ProfileField, string>> = {};
  if (!values.first) problems.first = PROFILE_MESSAGES.firstNameRequired;
  else if (values.first.length > NAME_MAX_LENGTH) problems.first = PROFILE_MESSAGES.nameTooLong;
  if (!values.last) problems.last = PROFILE_MESSAGES.lastNameRequired;
  else if (values.last.length > NAME_MAX_LENGTH) problems.last = PROFILE_MESSAGES.nameTooLong;
  if (values.mobile_phone && !PHONE_PATTERN.test(values.mobile_phone)) {
    problems.mobile_phone = PROFILE_MESSAGES.phoneInvalid;
  }
  if (values.time_zone && !isKnownTimeZone(values.time_zone)) {
    problems.time_zone = PROFILE_MESSAGES.timeZoneInvalid;
  }
  if (!values.date_format) problems.date_format = PROFILE_MESSAGES.dateFormatRequired;
  else if (!isDateFormat(values.date_format)) problems.date_format = PROFILE_MESSAGES.dateFormatRequired;
  if (values.share_code && !SHARE_CODE_PATTERN.test(values.share_code)) {
    problems.share_code = PROFILE_MESSAGES.shareCodeInvalid;
  }
  if ((values.share_description?.length ?? 0) > SHARE_DESCRIPTION_MAX_LENGTH) {
    problems.share_description = PROFILE_MESSAGES.shareDescriptionTooLong;
  }
  return problems;
}
