/** buildInstance → parseDicomHeader for every modality the writer supports, checked field by field. */
import dcmjs from 'dcmjs';
import { describe, expect, it } from 'vitest';
import { parseDicomHeader } from '../../src/dicom/parse.js';
import { MODALITIES, SOP_CLASS_BY_MODALITY, type Modality } from '../../src/dicom/sop-classes.js';
import { buildInstance, EXPLICIT_VR_LITTLE_ENDIAN, IMPLEMENTATION_CLASS_UID } from '../../src/dicom/write.js';
import { baseSpec } from './support.js';

/** Reads a file back with dcmjs (a different parser from the one under test) as a keyword map. */
function readWithDcmjs(bytes: Uint8Array): { meta: Record<string, unknown>; data: Record<string, unknown> } {
  const copy = bytes.slice().buffer;
  const dict = dcmjs.data.DicomMessage.readFile(copy);
  return {
    meta: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.meta),
    data: dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict),
  };
}

function pixelBytes(data: Record<string, unknown>): Uint8Array {
  const frames = data.PixelData as ArrayBuffer[];
  expect(frames).toHaveLength(1);
  return new Uint8Array(frames[0]!);
}

describe.each(MODALITIES.map((m) => [m] as [Modality]))('round trip %s', (modality) => {
  const spec = baseSpec({
    modality,
    sopInstanceUid: `2.25.77.${modality.charCodeAt(0)}${modality.charCodeAt(1)}`,
    instanceNumber: 3,
    seriesNumber: 4,
    rows: 32,
    columns: 48,
  });
  const bytes = buildInstance(spec);
  const color = modality === 'US' || modality === 'XC';

  it('parses back to the values it was built from', () => {
    expect(parseDicomHeader(bytes)).toEqual({
      studyInstanceUid: spec.studyInstanceUid,
      seriesInstanceUid: spec.seriesInstanceUid,
      sopInstanceUid: spec.sopInstanceUid,
      sopClassUid: SOP_CLASS_BY_MODALITY[modality],
      transferSyntaxUid: EXPLICIT_VR_LITTLE_ENDIAN,
      patientName: 'DOE^JOHN',
      patientId: 'MRN0001',
      patientSex: 'M',
      patientBirthDate: '19700115',
      patientAge: '054Y',
      accessionNumber: 'ACC0001',
      studyDescription: 'CT CHEST W/O CONTRAST',
      studyDate: '20240310',
      studyTime: '093015',
      modality,
      referringPhysician: 'HOUSE^GREGORY',
      seriesNumber: 4,
      seriesDescription: 'AXIAL 2.5MM',
      bodyPart: 'CHEST',
      instanceNumber: 3,
      rows: 32,
      columns: 48,
      numberOfFrames: 1,
      institutionName: 'GENERAL HOSPITAL',
      byteLength: bytes.length,
    });
  });

  it('has a complete file meta header and the right pixel layout (read with dcmjs)', () => {
    const { meta, data } = readWithDcmjs(bytes);
    expect(meta).toMatchObject({
      MediaStorageSOPClassUID: SOP_CLASS_BY_MODALITY[modality],
      MediaStorageSOPInstanceUID: spec.sopInstanceUid,
      TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
      ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    });
    expect(data).toMatchObject(
      color
        ? { PhotometricInterpretation: 'RGB', SamplesPerPixel: 3, BitsAllocated: 8, PlanarConfiguration: 0 }
        : { PhotometricInterpretation: 'MONOCHROME2', SamplesPerPixel: 1, BitsAllocated: 16, BitsStored: 12 },
    );
    expect(pixelBytes(data).length).toBe(32 * 48 * (color ? 3 : 2));
  });
});

describe('pixel data', () => {
  it('differs between slices of a series, so the viewer shows distinct images', () => {
    const slice = (instanceNumber: number): Uint8Array =>
      pixelBytes(
        readWithDcmjs(buildInstance(baseSpec({ instanceNumber, sopInstanceUid: `2.25.5.${instanceNumber}` })))
          .data,
      );
    const [a, b] = [slice(1), slice(2)];
    expect(a.length).toBe(64 * 64 * 2); // default size
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it('keeps 16-bit values within BitsStored (12 bits) and is not blank', () => {
    const values = new Uint16Array(pixelBytes(readWithDcmjs(buildInstance(baseSpec())).data).slice().buffer);
    expect(Math.max(...values)).toBeLessThanOrEqual(4095);
    expect(new Set(values).size).toBeGreaterThan(10);
  });

  it('writes CT rescale and window so stored values map to Hounsfield units', () => {
    const { data } = readWithDcmjs(buildInstance(baseSpec({ modality: 'CT' })));
    expect(data).toMatchObject({
      RescaleIntercept: -1024,
      RescaleSlope: 1,
      WindowCenter: 40,
      WindowWidth: 400,
    });
    expect(data.FrameOfReferenceUID).toMatch(/^2\.25\.\d+$/);
  });

  it('pads odd-length RGB pixel data to an even length', () => {
    const { data } = readWithDcmjs(buildInstance(baseSpec({ modality: 'US', rows: 3, columns: 3 })));
    expect(pixelBytes(data).length).toBe(28); // 27 bytes of RGB + 1 pad byte
  });
});

describe('text values', () => {
  it('round-trips non-ASCII names as UTF-8 (ISO_IR 192)', () => {
    const parsed = parseDicomHeader(
      buildInstance(baseSpec({ patientName: 'MÜLLER^JÖRG', institutionName: 'KLINIKUM KÖLN' })),
    );
    expect(parsed.patientName).toBe('MÜLLER^JÖRG');
    expect(parsed.institutionName).toBe('KLINIKUM KÖLN');
  });

  it('strips the trailing space padding of odd-length values', () => {
    // 'DOE^JON' is 7 bytes, so it is stored padded to 8 with a space.
    expect(parseDicomHeader(buildInstance(baseSpec({ patientName: 'DOE^JON' }))).patientName).toBe('DOE^JON');
  });

  it('computes the patient age from birth and study date when not given', () => {
    const parsed = parseDicomHeader(
      buildInstance(baseSpec({ patientBirthDate: '20231201', studyDate: '20240310' })),
    );
    expect(parsed.patientAge).toBe('003M');
  });
});
