import { Readable } from 'node:stream';
import type { StoreOutcome, StoreSource } from '../../dimse/client/index.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { BURNED_IN_REFUSAL, type BoundPushProfile } from './push-profiles.js';
import type { PushInstanceRow } from './study-pushes.repository.js';

/** An outcome told in terms of the stored instance: its own UID, the reason, the UID the PACS got. */
export interface SentOutcome {
  source: string;
  reason: string | undefined;
  sentUid: string | undefined;
}

/** What one lane of a push offers the PACS, and how each outcome reads in terms of the stored instance. */
export interface PushSources {
  sources: StoreSource[];
  outcomeOf: (outcome: StoreOutcome) => SentOutcome;
}

/** The sources of a push as stored: each file streamed as it is, under its own UID. */
export function plainSources(
  lane: readonly PushInstanceRow[],
  blobs: Pick<BlobStore, 'readStream'>,
): PushSources {
  return {
    sources: lane.map((instance) => ({
      sopClassUid: instance.sop_class_uid,
      sopInstanceUid: instance.sop_instance_uid,
      transferSyntax: instance.transfer_syntax,
      open: () => Readable.from(blobs.readStream(instance.blob_key)),
    })),
    outcomeOf: (outcome) => ({ source: outcome.sopInstanceUid, reason: outcome.reason, sentUid: undefined }),
  };
}

/**
 * The sources of a de-identified push (decision 0071): each stored file becomes its copy by the
 * one engine (privacy's profile, bound to the account's secret) only when the association reads it,
 * so a lane holds at most the file being sent and the next one. The PACS is offered the copy's SOP
 * Instance UID and transfer syntax, known before the copy is made. A file the profile refuses
 * (burned-in text) or cannot read is never sent: its read fails, and its outcome says why.
 */
export function deidentifiedSources(
  lane: readonly PushInstanceRow[],
  profile: BoundPushProfile,
  blobs: Pick<BlobStore, 'read'>,
): PushSources {
  /** Sent UID → stored UID, and why a file was not sent (our own refusals). */
  const sourceOf = new Map<string, string>();
  const refusals = new Map<string, string>();
  const sources = lane.map((instance): StoreSource => {
    const sentUid = profile.sentUid(instance.sop_instance_uid);
    sourceOf.set(sentUid, instance.sop_instance_uid);
    return {
      sopClassUid: instance.sop_class_uid,
      sopInstanceUid: sentUid,
      transferSyntax: profile.sentTransferSyntax(instance.transfer_syntax),
      open: () =>
        Readable.from(
          (async function* () {
            const applied = profile.apply(await blobs.read(instance.blob_key));
            if (applied.refused) {
              const why =
                applied.reason === 'burned_in'
                  ? BURNED_IN_REFUSAL
                  : `could not be de-identified: ${applied.why ?? 'unreadable'}`;
              refusals.set(sentUid, why);
              throw new Error(why);
            }
            // A per-field rule on the SOP Instance UID would make the copy another instance than offered.
            if (applied.result.sopInstanceUid !== sentUid) {
              const why = 'the profile gives the copy another SOP Instance UID than its UID remap';
              refusals.set(sentUid, why);
              throw new Error(why);
            }
            const bytes = applied.result.bytes;
            yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          })(),
        ),
    };
  });
  return {
    sources,
    outcomeOf: (outcome) => ({
      source: sourceOf.get(outcome.sopInstanceUid) ?? outcome.sopInstanceUid,
      reason: refusals.get(outcome.sopInstanceUid) ?? outcome.reason,
      sentUid: outcome.sopInstanceUid,
    }),
  };
}
