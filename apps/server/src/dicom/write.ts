/**
 * Writes real DICOM Part-10 files (Explicit VR Little Endian) for demo data, benchmarks and tests.
 *
 * Tests of the ingest pipeline, DICOMweb and DIMSE need files that other tools (dcmtk, viewers, Orthanc)
 * accept, so this goes through dcmjs's writer rather than hand-assembled bytes. The attribute set covers
 * the Patient, General Study, General Series, General Equipment, General Image, Image Pixel and (for CT
 * and MR) the modality-specific modules' Type 1 attributes; it is not validated against every IOD.
 */
import { createHash } from 'node:crypto';
import dcmjs from 'dcmjs';
import type { NaturalizedDataset } from 'dcmjs';
import { dicomAge } from './dates.js';
import { monochrome16, rgb8 } from './pixels.js';
import { isColorModality, SOP_CLASS_BY_MODALITY, type Modality } from './sop-classes.js';
import { ORG_ROOT, uidFromInteger } from './uid.js';

export { newUid, ORG_ROOT } from './uid.js';
export type { Modality } from './sop-classes.js';

// dcmjs logs a warning per unusual value by default; ingest of thousands of files would flood the log.
dcmjs.log.setLevel('error');

export const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
/** Identifies files written by this server (fixed: it names the implementation, not a file). */
export const IMPLEMENTATION_CLASS_UID = `${ORG_ROOT}.215813925961398386343658497417216432961`;
export const IMPLEMENTATION_VERSION_NAME = 'IMGINBOX_0_1';

export interface InstanceSpec {
  /** DICOM PN, `LAST^FIRST`. */
  patientName: string;
  patientId: string;
  /** M, F or O. */
  patientSex: string;
  /** YYYYMMDD. */
  patientBirthDate: string;
  /** AS, e.g. `045Y`; computed from birth and study date when omitted. */
  patientAge?: string;
  studyInstanceUid: string;
  /** YYYYMMDD. */
  studyDate: string;
  /** HHMMSS. */
  studyTime: string;
  studyDescription: string;
  accessionNumber: string;
  referringPhysician: string;
  institutionName: string;
  seriesInstanceUid: string;
  seriesNumber: number;
  seriesDescription: string;
  modality: Modality;
  bodyPart: string;
  sopInstanceUid: string;
  instanceNumber: number;
  /** Image size; 64×64 when omitted. */
  rows?: number;
  columns?: number;
  /** Shared by the slices of a series; derived from the series UID when omitted. */
  frameOfReferenceUid?: string;
}

/** Builds one complete Part-10 file for the spec. */
export function buildInstance(spec: InstanceSpec): Uint8Array {
  const sopClassUid = SOP_CLASS_BY_MODALITY[spec.modality];
  const meta: NaturalizedDataset = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sopClassUid,
    MediaStorageSOPInstanceUID: spec.sopInstanceUid,
    TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION_NAME,
    _vrMap: { FileMetaInformationVersion: 'OB' },
  };
  const dataset: NaturalizedDataset = {
    ...commonAttributes(spec, sopClassUid),
    ...modalityAttributes(spec),
    ...pixelAttributes(spec),
  };

  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return new Uint8Array(dict.write());
}

/** Patient, study, series, equipment and general image attributes every modality carries. */
function commonAttributes(spec: InstanceSpec, sopClassUid: string): NaturalizedDataset {
  return {
    // UTF-8, so names typed into the upload form (e.g. MÜLLER^JÖRG) survive the round trip.
    SpecificCharacterSet: 'ISO_IR 192',
    ImageType: isCrossSectional(spec.modality) ? ['ORIGINAL', 'PRIMARY', 'AXIAL'] : ['ORIGINAL', 'PRIMARY'],
    SOPClassUID: sopClassUid,
    SOPInstanceUID: spec.sopInstanceUid,
    StudyDate: spec.studyDate,
    SeriesDate: spec.studyDate,
    ContentDate: spec.studyDate,
    StudyTime: spec.studyTime,
    SeriesTime: spec.studyTime,
    ContentTime: spec.studyTime,
    AccessionNumber: spec.accessionNumber,
    Modality: spec.modality,
    Manufacturer: 'Imaging Inbox',
    InstitutionName: spec.institutionName,
    ReferringPhysicianName: spec.referringPhysician,
    StudyDescription: spec.studyDescription,
    SeriesDescription: spec.seriesDescription,
    PatientName: spec.patientName,
    PatientID: spec.patientId,
    PatientBirthDate: spec.patientBirthDate,
    PatientSex: spec.patientSex,
    PatientAge: spec.patientAge ?? dicomAge(spec.patientBirthDate, spec.studyDate),
    BodyPartExamined: spec.bodyPart,
    StudyInstanceUID: spec.studyInstanceUid,
    SeriesInstanceUID: spec.seriesInstanceUid,
    // Study ID is SH (16 chars) and Type 2; the accession number is the closest meaningful value.
    StudyID: spec.accessionNumber.slice(0, 16),
    SeriesNumber: spec.seriesNumber,
    InstanceNumber: spec.instanceNumber,
    AcquisitionNumber: 1,
  };
}

/** Frame of reference and geometry for cross-sectional modalities; orientation for projection images. */
function modalityAttributes(spec: InstanceSpec): NaturalizedDataset {
  const common: NaturalizedDataset = isCrossSectional(spec.modality)
    ? {
        FrameOfReferenceUID: spec.frameOfReferenceUid ?? derivedUid(`for:${spec.seriesInstanceUid}`),
        PositionReferenceIndicator: '',
        // General Series Type 2C for CT and MR: head first, supine.
        PatientPosition: 'HFS',
        SliceThickness: 2.5,
        ImagePositionPatient: [-100, -100, spec.instanceNumber * 2.5],
        ImageOrientationPatient: [1, 0, 0, 0, 1, 0],
        SliceLocation: spec.instanceNumber * 2.5,
        PixelSpacing: [0.7, 0.7],
      }
    : { PatientOrientation: ['L', 'F'] };

  switch (spec.modality) {
    case 'CT':
      // Stored 0..4095 with intercept -1024 gives Hounsfield units -1024..3071; soft-tissue window.
      return {
        ...common,
        KVP: 120,
        RescaleIntercept: -1024,
        RescaleSlope: 1,
        RescaleType: 'HU',
        WindowCenter: 40,
        WindowWidth: 400,
      };
    case 'MR':
      return {
        ...common,
        ScanningSequence: 'SE',
        SequenceVariant: 'NONE',
        ScanOptions: '',
        MRAcquisitionType: '2D',
        RepetitionTime: 500,
        EchoTime: 15,
        EchoTrainLength: 1,
        MagneticFieldStrength: 1.5,
        WindowCenter: 1000,
        WindowWidth: 2000,
      };
    case 'DX':
    case 'MG':
      return { ...common, PresentationIntentType: 'FOR PRESENTATION', WindowCenter: 1000, WindowWidth: 2000 };
    case 'US':
    case 'XC':
      return common;
    default:
      return { ...common, WindowCenter: 1000, WindowWidth: 2000 };
  }
}

/** Image Pixel module and the pixel data itself. */
function pixelAttributes(spec: InstanceSpec): NaturalizedDataset {
  const rows = spec.rows ?? 64;
  const columns = spec.columns ?? 64;
  if (isColorModality(spec.modality)) {
    return {
      SamplesPerPixel: 3,
      PhotometricInterpretation: 'RGB',
      PlanarConfiguration: 0,
      Rows: rows,
      Columns: columns,
      BitsAllocated: 8,
      BitsStored: 8,
      HighBit: 7,
      PixelRepresentation: 0,
      PixelData: rgb8(rows, columns, spec.instanceNumber).buffer,
      _vrMap: { PixelData: 'OB' },
    };
  }
  return {
    SamplesPerPixel: 1,
    PhotometricInterpretation: 'MONOCHROME2',
    Rows: rows,
    Columns: columns,
    BitsAllocated: 16,
    BitsStored: 12,
    HighBit: 11,
    PixelRepresentation: 0,
    PixelData: monochrome16(rows, columns, spec.instanceNumber).buffer,
    _vrMap: { PixelData: 'OW' },
  };
}

function isCrossSectional(modality: Modality): boolean {
  return modality === 'CT' || modality === 'MR' || modality === 'PT' || modality === 'NM';
}

/** A stable UID for a name (hash → 128-bit integer under 2.25), so re-writing a series reuses it. */
function derivedUid(name: string): string {
  return uidFromInteger(BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 32)}`));
}
