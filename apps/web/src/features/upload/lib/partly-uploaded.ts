import { fileKeys } from './file-identity';
import type { ResumeStore } from './resume-store';
import type { FoundStudy } from './studies';

/**
 * Studies an earlier page load began sending to `scope` and did not finish: some file has a resume
 * record, not every file is marked stored. The server already knows such a study, but it stays
 * selectable so the upload can go on. All records are read in one go.
 */
export async function partlyUploaded(
  studies: readonly FoundStudy[],
  files: readonly File[],
  scope: string,
  store: ResumeStore,
): Promise<Set<string>> {
  const owners: { studyUid: string; file: File; sopInstanceUid: string | undefined }[] = [];
  for (const study of studies) {
    study.fileIndexes.forEach((index, i) => {
      const file = files[index];
      if (file) owners.push({ studyUid: study.studyUid, file, sopInstanceUid: study.sopInstanceUids[i] });
    });
  }
  // One read of every file's record; the upload that follows is answered from it (resume-idb.ts).
  const records = await store.getMany(scope, await fileKeys(owners));
  const started = new Set<string>();
  const unfinished = new Set<string>();
  owners.forEach((o, i) => {
    const record = records[i];
    if (record) started.add(o.studyUid);
    if (!record?.done) unfinished.add(o.studyUid);
  });
  // A study with a missing file (index out of range) counts as unfinished, as before.
  for (const study of studies) {
    if (study.fileIndexes.some((index) => !files[index])) unfinished.add(study.studyUid);
  }
  return new Set([...started].filter((uid) => unfinished.has(uid)));
}
