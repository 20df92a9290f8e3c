import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dicomParser from 'dicom-parser';

/** Debian's python3-pydicom test files: small real DICOM files in many transfer syntaxes. */
export const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/**
 * A corpus file with new study, series and instance UIDs (dcmtk's `dcmodify`, which keeps the
 * transfer syntax). Several corpus files are one MR image in different syntaxes under the same
 * UIDs; stored as they are, every one after the first would be the idempotent re-store of the
 * first and the test would silently look at the wrong file.
 */
export function freshCorpusCopy(file: string): { bytes: Buffer; transferSyntax: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-corpus-'));
  try {
    const copy = path.join(dir, file);
    fs.copyFileSync(path.join(PYDICOM, file), copy);
    execFileSync('dcmodify', ['-nb', '-gst', '-gse', '-gin', copy]);
    const bytes = fs.readFileSync(copy);
    const transferSyntax =
      dicomParser.readPart10Header(new Uint8Array(bytes)).string('x00020010')?.trim() ?? '';
    return { bytes, transferSyntax };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
