import { fileKey, type ResumeStore } from './resume-store';
import type { FoundStudy } from './studies';

/**
 * Studies an earlier page load began sending to `scope` and did not finish: some file has a resume
 * record, not every file is marked stored. The server already knows such a study, but it stays
 * selectable so the upload can go on.
 */
export function partlyUploaded(
  studies: readonly FoundStudy[],
  files: readonly File[],
  scope: string,
  store: ResumeStore,
): Set<string> {
  const partial = new Set<string>();
  for (const study of studies) {
    let started = false;
    let allDone = true;
    study.fileIndexes.forEach((index, i) => {
      const file = files[index];
      const record = file ? store.get(scope, fileKey(file, study.sopInstanceUids[i])) : null;
      if (record) started = true;
      if (!record?.done) allDone = false;
    });
    if (started && !allDone) partial.add(study.studyUid);
  }
  return partial;
}
