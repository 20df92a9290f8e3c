import { z } from 'zod';
import {
  optionalText,
  pageParams,
  rawText,
  reportInvalid,
  reportMissing,
  requiredText,
} from './api-params.js';
import { ACCOUNT_LANGUAGE_MESSAGES, ACCOUNT_LANGUAGE_PARAM } from './languages.js';
import { MAX_PAGE_ROWS } from './limits.js';
import { EVENT_FLAGS } from './notifications.js';
import type { EventFlagName } from './notifications.js';
import { PROFILE_FIELD_NAMES } from './profile.js';
import type { ProfileChanges } from './profile.js';

/** Request schemas of sessions, users, accounts, groups and settings (api-params.ts explains the codecs). */

/** Any call that names one object by `uuid`. */
export const uuidRequest = z.object({ uuid: requiredText() });

/** account/set's parameter for the AE title the account calls its PACS destinations as. */
export const ACCOUNT_CALLING_AET_PARAM = 'settings.calling_aet';

/** account/set's `settings` JSON hash as `settings.<name>` parameters; null when it is not a hash of texts. */
function settingsHash(raw: unknown, ctx: z.core.$RefinementCtx<unknown>): Record<string, string> | null {
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    typeof parsed !== 'object' ||
    Array.isArray(parsed) ||
    Object.values(parsed).some((v) => typeof v !== 'string')
  ) {
    reportInvalid(ctx, 'settings', 'must be a JSON object of texts');
    return null;
  }
  return Object.fromEntries(
    Object.entries(parsed as Record<string, string>).map(([k, v]) => [`settings.${k}`, v]),
  );
}

/**
 * account/set: the account's settings an admin changes, each as `settings.<name>`: its default
 * language and the AE title it calls its PACS as (at least one of them). Naming another setting is
 * refused rather than silently ignored. The values are checked by the server after the access check
 * (an outsider learns nothing).
 */
export const accountSetRequest = z
  .looseObject({
    uuid: requiredText(),
    [ACCOUNT_LANGUAGE_PARAM]: rawText(),
    [ACCOUNT_CALLING_AET_PARAM]: rawText(),
  })
  .transform((sent, ctx) => {
    // Ambra's SDK sends the settings as one JSON hash, `settings={"default_language":"fr"}`.
    const hash = settingsHash(sent['settings'], ctx);
    if (hash === null) return z.NEVER;
    const { settings: _hash, ...rest } = sent;
    const p = { ...rest, ...hash };
    const other = Object.keys(p).find(
      (k) => k.startsWith('settings.') && k !== ACCOUNT_LANGUAGE_PARAM && k !== ACCOUNT_CALLING_AET_PARAM,
    );
    if (other) return reportInvalid(ctx, other, ACCOUNT_LANGUAGE_MESSAGES.notSettable);
    const language = p[ACCOUNT_LANGUAGE_PARAM];
    const callingAet = p[ACCOUNT_CALLING_AET_PARAM];
    if (language === undefined && callingAet === undefined) return reportMissing(ctx, ACCOUNT_LANGUAGE_PARAM);
    return {
      uuid: p.uuid,
      ...(language !== undefined ? { defaultLanguage: language.trim() } : {}),
      ...(callingAet !== undefined ? { callingAet } : {}),
    };
  });

/** Calls about one account. */
export const accountIdRequest = z.object({ account_id: requiredText() });

/** Lists that may be narrowed to one account. */
export const optionalAccountRequest = z.object({ account_id: optionalText() });

/** account/list: a page of the caller's accounts (every one unless a page size is asked). */
export const accountListRequest = z.object(pageParams(MAX_PAGE_ROWS));

/** group/list: a page of the caller's groups, optionally of one account. */
export const groupListRequest = optionalAccountRequest.extend(pageParams(MAX_PAGE_ROWS));

/** user/namespace/list: a page of the namespaces (accounts and groups) the caller belongs to. */
export const namespaceListRequest = optionalAccountRequest.extend(pageParams(MAX_PAGE_ROWS));

/** dicom/node/list: a page of an account's registered DICOM senders. */
export const dicomNodeListRequest = accountIdRequest.extend(pageParams(MAX_PAGE_ROWS));

/** session/login; `otp` is the two-factor code (or a recovery code) when MFA_REQUIRED asked for one. */
export const loginRequest = z.object({
  login: requiredText(),
  password: requiredText(),
  otp: optionalText().pipe(z.string().max(32, 'at most 32 characters').optional()),
});

/** session/permissions: of a group or account namespace (or an account uuid); the first account's when absent. */
export const sessionPermissionsRequest = z
  .object({ namespace_id: optionalText(), account_id: optionalText() })
  .transform((p) => ({ namespaceId: p.namespace_id ?? p.account_id }));

export const passwordLostRequest = z.object({ email: requiredText() });

export const passwordResetRequest = z.object({
  token: requiredText(),
  password: requiredText(),
  password_confirm: rawText(),
});

export const passwordChangeRequest = z.object({
  old_password: requiredText(),
  password: requiredText(),
  password_confirm: rawText(),
});

/** user/set changes only the profile fields it is given; an empty value clears an optional one. */
export const userSetRequest = z
  .object(Object.fromEntries([...PROFILE_FIELD_NAMES, 'language'].map((f) => [f, rawText()])))
  .transform((p) => {
    const given: ProfileChanges = {};
    for (const field of PROFILE_FIELD_NAMES) {
      const value = p[field];
      if (value !== undefined) given[field] = value;
    }
    if (p.language !== undefined) given.language = p.language;
    return given;
  });

export const settingGetRequest = z.object({ key: requiredText() });
/** setting/set: value is kept as sent (it may be JSON); the server checks key and length. */
export const settingSetRequest = z.object({ key: requiredText(), value: rawText() });

/**
 * namespace/share_code: with share_code, whom a code reaches (Send exams); else the share code and
 * settings of namespace_id.
 */
export const shareCodeRequest = z
  .object({ share_code: rawText(), namespace_id: optionalText() })
  .transform((p, ctx) => {
    if (p.share_code !== undefined) return { by: 'code' as const, code: p.share_code };
    if (p.namespace_id) return { by: 'namespace' as const, namespaceId: p.namespace_id };
    return reportMissing(ctx, 'namespace_id');
  });

/** user/event: a group's notification preferences, the caller's own or (admins) another user's. */
export const userEventRequest = z.object({ namespace_id: requiredText(), user_id: optionalText() });

/** user/event/set: event_share, event_harvest and/or event_nominate, each 0 or 1; at least one must be given. */
export const userEventSetRequest = z
  .object({
    namespace_id: requiredText(),
    user_id: optionalText(),
    ...(Object.fromEntries(EVENT_FLAGS.map((f) => [f, optionalText()])) as Record<
      EventFlagName,
      ReturnType<typeof optionalText>
    >),
  })
  .transform((p, ctx) => {
    const changes: Partial<Record<EventFlagName, number>> = {};
    for (const flag of EVENT_FLAGS) {
      const raw = p[flag];
      if (raw === undefined) continue;
      if (raw !== '0' && raw !== '1') {
        ctx.issues.push({ code: 'custom', message: 'must be 0 or 1', path: [flag], input: raw });
        return z.NEVER;
      }
      changes[flag] = Number(raw);
    }
    if (Object.keys(changes).length === 0) return reportMissing(ctx, ...EVENT_FLAGS);
    return { namespaceId: p.namespace_id, userId: p.user_id, changes };
  });

/**
 * namespace/engine/fqdn: the storage engine of a namespace (`namespace_id`), or of a study
 * (`study_id`, or `storage_namespace` or `phi_namespace`, and `study_uid`).
 */
export const engineFqdnRequest = z
  .object({
    namespace_id: optionalText(),
    study_id: optionalText(),
    storage_namespace: optionalText(),
    phi_namespace: optionalText(),
    study_uid: optionalText(),
  })
  .transform((p, ctx) => {
    if (p.namespace_id) return { by: 'namespace' as const, namespaceId: p.namespace_id };
    // Ambra's SDK also names the study by its uuid.
    if (p.study_id) return { by: 'uuid' as const, studyId: p.study_id };
    const namespace = p.storage_namespace ?? p.phi_namespace;
    if (!namespace || !p.study_uid) return reportMissing(ctx, 'namespace_id');
    return { by: 'study' as const, namespace, studyUid: p.study_uid };
  });

/** The namespace settings this product keeps per namespace, over its account's value. */
export const NAMESPACE_SETTINGS = ['enable_dicom_wrapping'] as const;
export type NamespaceSettingName = (typeof NAMESPACE_SETTINGS)[number];

/**
 * Ambra's other namespace settings: named so a client sending one is told it is not kept here
 * (INVALID_SETTING) rather than having it silently dropped.
 */
const OTHER_AMBRA_SETTINGS = [
  'allow_drag_and_drop_in_study_uploader',
  'auto_create_patient',
  'auto_enable_dicom_wrapping',
  'cloud_storage_config',
  'disable_duplicate_study_upload',
  'enable_epic_patient_lookup',
  'enable_multipart_uploader',
  'link_defaults',
  'no_dup_share',
  'pixel_anonymize_color',
  'priority_notifications',
  'single_file_dicom_wrapping',
  'study_field_flags',
  'ui_json',
  'upload_settings',
] as const;

/**
 * namespace/settings (Ambra's parameters): `uuid` of the namespace; with no setting it reads the
 * namespace's settings, with some it sets them. Each value is kept as sent ('0'/'1' flags are
 * checked by the server, which answers INVALID_SETTING_VALUE naming the setting).
 */
export const namespaceSettingsRequest = z
  .object({
    uuid: requiredText(),
    ...Object.fromEntries(NAMESPACE_SETTINGS.map((name) => [name, rawText()])),
    ...Object.fromEntries(OTHER_AMBRA_SETTINGS.map((name) => [name, rawText()])),
  })
  .transform((p) => {
    const raw = p as Record<string, string | undefined>;
    const changes: Partial<Record<NamespaceSettingName, string>> = {};
    for (const name of NAMESPACE_SETTINGS) if (raw[name] !== undefined) changes[name] = raw[name].trim();
    const unsupported = OTHER_AMBRA_SETTINGS.filter((name) => raw[name] !== undefined);
    return { namespaceId: p.uuid, changes, unsupported };
  });

/** namespace/settings's answer: the namespace's settings as they apply (its own, else its account's). */
export interface NamespaceSettingsAnswer {
  status: 'OK';
  uuid: string;
  settings: Record<NamespaceSettingName, string>;
}
