import { z } from 'zod';
import { optionalText, reportInvalid, reportMissing, requiredInt, requiredText } from './api-params.js';
import { MAX_INT } from './limits.js';
import { STUDY_EDITABLE_FIELDS } from './study-requests.js';
import type { StudyEditableField } from './study-requests.js';

/** Request schemas of resumable upload sessions (api-params.ts explains the codecs). */

/** A byte count or offset: up to 16 digits. */
const wholeBytes = (name: string) =>
  requiredText().transform((raw, ctx) =>
    /^\d{1,16}$/.test(raw) ? Number(raw) : reportInvalid(ctx, name, 'a whole number of bytes'),
  );

/**
 * upload/session/create: the file's size and, to resume later, the SHA-256 of its head. A signed-in
 * upload names its group (namespace_id); a link upload goes to the link's group.
 */
export const uploadSessionCreateRequest = z.object({
  size: wholeBytes('size'),
  head_sha256: optionalText(),
  namespace_id: optionalText(),
});

/** upload/session/status: where a session stands (with head_sha256: may this file resume it). */
export const uploadSessionStatusRequest = z.object({ id: requiredText(), head_sha256: optionalText() });

/** upload/session/chunk: the bytes at `offset` come as the raw body. */
export const uploadSessionChunkRequest = z.object({ id: requiredText(), offset: wholeBytes('offset') });

/** upload/session/complete. */
export const uploadSessionCompleteRequest = z.object({ id: requiredText() });

/**
 * study/add: the empty study an upload is about to fill, in a group (`storage_namespace` as Ambra's
 * uploader names it, or `phi_namespace` / `namespace_id`), with the attributes it already knows.
 */
export const studyAddRequest = z
  .object({
    storage_namespace: optionalText(),
    phi_namespace: optionalText(),
    namespace_id: optionalText(),
    study_uid: requiredText(),
    ...Object.fromEntries(STUDY_EDITABLE_FIELDS.map((f) => [f, optionalText()])),
  })
  .transform((p, ctx) => {
    const namespaceId = p.storage_namespace ?? p.phi_namespace ?? p.namespace_id;
    if (!namespaceId) return reportMissing(ctx, 'storage_namespace');
    const fields: Partial<Record<StudyEditableField, string>> = {};
    for (const field of STUDY_EDITABLE_FIELDS) {
      const value = (p as Record<string, string | undefined>)[field];
      if (value !== undefined) fields[field] = value;
    }
    return { namespaceId, studyUid: p.study_uid, fields };
  });

/** study/sync: the upload into a study is over and sent `image_count` images. */
export const studySyncRequest = z
  .object({
    uuid: optionalText(),
    study_id: optionalText(),
    study_uid: optionalText(),
    storage_namespace: optionalText(),
    phi_namespace: optionalText(),
    image_count: requiredInt(0, MAX_INT),
  })
  .transform(({ image_count, ...p }, ctx) => {
    // Ambra's SDK names the study `study_id` or by its storage triplet; the spec's uploader `uuid`.
    const uuid = p.uuid ?? p.study_id;
    if (uuid) return { study: { by: 'uuid' as const, uuid }, image_count };
    const namespace = p.storage_namespace ?? p.phi_namespace;
    if (!p.study_uid || !namespace) return reportMissing(ctx, 'uuid');
    return {
      study: { by: 'storage' as const, namespace, studyUid: p.study_uid, phiNamespace: p.phi_namespace },
      image_count,
    };
  });
