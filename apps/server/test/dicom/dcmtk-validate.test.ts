/**
 * Generated files must be readable by other DICOM software, not just by our own parser. dciodvfy (full IOD
 * validation) is used when installed; otherwise dcmtk's dcmftest (Part-10 check) and dcmdump (full parse,
 * no `E:` lines, values as written) must accept every modality's file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { MODALITIES } from '../../src/dicom/sop-classes.js';
import { buildInstance } from '../../src/dicom/write.js';
import { baseSpec, dcmdump, dcmftest, dumpValue, hasTool, tempDir } from './support.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe.skipIf(!hasTool('dcmdump'))('generated files under dcmtk', () => {
  it.each([...MODALITIES])('%s parses without errors in dcmdump and dcmftest', (modality) => {
    const spec = baseSpec({ modality, patientName: 'MÜLLER^JÖRG', sopInstanceUid: '2.25.4242.1' });
    const path = tmp.write(`${modality}.dcm`, buildInstance(spec));

    expect(dcmftest(path)).toMatch(/^yes: /);
    const dump = dcmdump(path);
    expect(dump.status).toBe(0);
    expect(dump.errors).toEqual([]);
    expect(dumpValue(dump.stdout, '0008,0060')).toBe(modality);
    expect(dumpValue(dump.stdout, '0010,0010')).toBe('MÜLLER^JÖRG');
    expect(dumpValue(dump.stdout, '0008,0018')).toBe('2.25.4242.1');
    expect(dump.stdout).toMatch(/# Used TransferSyntax: Little Endian Explicit/);
    expect(dump.stdout).toMatch(/^\(7fe0,0010\) O[BW] /m);
  });

  it.skipIf(!hasTool('dciodvfy'))('CT passes dciodvfy without errors', () => {
    const path = tmp.write('ct-iod.dcm', buildInstance(baseSpec()));
    const result = spawnSync('dciodvfy', [path], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/^Error/m);
  });
});
