import type { WrapUploadAnswer } from '@imaging-inbox/contract';

type WrapOne = (file: File, studyUid: string | null, signal: AbortSignal) => Promise<WrapUploadAnswer>;

/**
 * The upload queue sends files in parallel, but every file of one non-DICOM upload belongs to one
 * study whose UID the server makes: the first call creates it and the others wait for its answer,
 * then name that study. If the first call fails, the next one in line creates the study instead.
 */
export function wrapSender(wrapOne: WrapOne) {
  let studyUid: string | null = null;
  let creating: Promise<unknown> | null = null;
  return async (file: File, signal: AbortSignal): Promise<{ duplicate: boolean }> => {
    while (studyUid === null && creating) await creating.catch(() => undefined);
    if (studyUid !== null) {
      const answer = await wrapOne(file, studyUid, signal);
      return { duplicate: answer.instances.every((i) => i.duplicate) };
    }
    const call = wrapOne(file, null, signal);
    creating = call;
    try {
      const answer = await call;
      studyUid = answer.study_uid;
      return { duplicate: answer.instances.every((i) => i.duplicate) };
    } finally {
      if (creating === call) creating = null;
    }
  };
}
