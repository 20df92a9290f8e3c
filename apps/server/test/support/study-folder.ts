import fs from 'node:fs';
import path from 'node:path';
import { writeStudyFiles } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';

/** Writes the Part-10 files of `specs` into `dir` (made if missing), one `<SOP Instance UID>.dcm` each. */
export function writeStudyFolder(dir: string, ...specs: StudySpec[]) {
  fs.mkdirSync(dir, { recursive: true });
  return specs.map((spec) => {
    const files = writeStudyFiles(spec);
    for (const file of files) fs.writeFileSync(path.join(dir, `${file.sopInstanceUid}.dcm`), file.bytes);
    return { spec, files };
  });
}
