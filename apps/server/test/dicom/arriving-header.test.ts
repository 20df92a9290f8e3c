import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildInstance, parseArrivingHeader, parseDicomHeader } from '../../src/dicom/index.js';
import { baseSpec, deflated } from './support.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

describe('parseArrivingHeader: the UIDs of a file still arriving', () => {
  const file = buildInstance(baseSpec({ rows: 256, columns: 256 }));
  const complete = parseDicomHeader(file);
  // Where Pixel Data's value starts: the element header (12 bytes in explicit VR for OW) ends there.
  const pixelValue = file.length - 256 * 256 * 2;

  it('answers nothing before the bytes reach the Pixel Data element', () => {
    expect(parseArrivingHeader(file.subarray(0, 100))).toBeUndefined();
    expect(parseArrivingHeader(file.subarray(0, 400))).toBeUndefined();
    expect(parseArrivingHeader(file.subarray(0, pixelValue - 13))).toBeUndefined();
  });

  it('answers the study and SOP Instance UIDs once Pixel Data has begun, its value still missing', () => {
    for (const end of [pixelValue, pixelValue + 1, pixelValue + 60_000, file.length]) {
      expect(parseArrivingHeader(file.subarray(0, end))).toEqual({
        studyInstanceUid: complete.studyInstanceUid,
        sopInstanceUid: complete.sopInstanceUid,
      });
    }
  });

  it('answers nothing for bytes that are not a Part-10 file or lack the UIDs', () => {
    expect(parseArrivingHeader(Buffer.alloc(70_000, 0x41))).toBeUndefined();
    const noStudy = buildInstance(baseSpec({ studyInstanceUid: '' }));
    expect(parseArrivingHeader(noStudy)).toBeUndefined();
  });

  it('answers nothing for a deflated dataset still arriving, and the UIDs once it is whole', () => {
    const squeezed = deflated(file);
    expect(parseArrivingHeader(squeezed.subarray(0, Math.floor(squeezed.length / 2)))).toBeUndefined();
    expect(parseArrivingHeader(squeezed)).toEqual({
      studyInstanceUid: complete.studyInstanceUid,
      sopInstanceUid: complete.sopInstanceUid,
    });
  });

  it('reads a real file from the pydicom corpus like the complete parse', () => {
    const ct = fs.readFileSync(`${PYDICOM}/CT_small.dcm`);
    const parsed = parseDicomHeader(ct);
    expect(parseArrivingHeader(ct)).toEqual({
      studyInstanceUid: parsed.studyInstanceUid,
      sopInstanceUid: parsed.sopInstanceUid,
    });
  });
});
