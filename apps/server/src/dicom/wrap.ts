/**
 * Wraps non-DICOM files into DICOM Part-10 instances (the non-DICOM upload of SPEC.md section 2):
 *
 * - a PDF becomes Encapsulated PDF Storage (PS3.3 A.45.1): Encapsulated Document Series, SC Equipment
 *   and Encapsulated Document modules, the PDF bytes in (0042,0011), Modality DOC;
 * - an image becomes Secondary Capture Image Storage (PS3.3 A.8.1), Modality OT: a baseline or
 *   extended JPEG keeps its bytes as one encapsulated frame (transfer syntax of its process), other
 *   images go in as native pixels in Explicit VR Little Endian.
 *
 * Every file gets its own series and instance UID; the study and patient attributes come from the
 * upload form. Type 2 attributes without a value (accession number, referring physician, laterality)
 * are present and empty, as PS3.5 7.4 asks. Conversion Type is WSD (workstation): the content was
 * not acquired by a modality but brought in by a user.
 */
import dcmjs from 'dcmjs';
import type { NaturalizedDataset } from 'dcmjs';
import { dicomAge } from './dates.js';
import { EXPLICIT_VR_LITTLE_ENDIAN, IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from './write.js';

export const ENCAPSULATED_PDF_STORAGE = '1.2.840.10008.5.1.4.1.1.104.1';
export const SECONDARY_CAPTURE_STORAGE = '1.2.840.10008.5.1.4.1.1.7';

/** What the form and the server decide for the whole study. */
export interface WrapStudy {
  /** PN `LAST^FIRST^MIDDLE`. */
  patientName: string;
  patientId: string;
  /** M, F or O. */
  patientSex: string;
  /** YYYYMMDD. */
  patientBirthDate: string;
  studyInstanceUid: string;
  /** YYYYMMDD. */
  studyDate: string;
  /** HHMMSS, or '' when the form left it empty. */
  studyTime: string;
  studyDescription: string;
}

/** One wrapped file's own identifiers. */
export interface WrapInstance {
  seriesInstanceUid: string;
  seriesNumber: number;
  sopInstanceUid: string;
  /** The original file name, kept as the series description and document title. */
  title: string;
  /** When the wrapping happened: YYYYMMDD and HHMMSS. */
  contentDate: string;
  contentTime: string;
}

export interface KeptJpeg {
  kind: 'jpeg';
  bytes: Uint8Array;
  transferSyntax: string;
  rows: number;
  columns: number;
  samplesPerPixel: 1 | 3;
  photometric: string;
}

export interface NativePixels {
  kind: 'native';
  pixels: Uint8Array;
  rows: number;
  columns: number;
  samplesPerPixel: 1 | 3;
  bitsAllocated: 8 | 16;
  photometric: string;
}

/** LO and SH values are cut to their DICOM maximum length. */
const lo = (value: string) => value.slice(0, 64);

/**
 * Encapsulated PDF Storage for one PDF; `extra` adds or replaces attributes (a report's accession
 * number, reading physician and verification flag).
 */
export function wrapPdf(
  study: WrapStudy,
  instance: WrapInstance,
  pdf: Uint8Array,
  extra: NaturalizedDataset = {},
): Uint8Array {
  // OB values have even length: a PDF of odd length gets one trailing NUL (PS3.3 C.24.2.1), and
  // Encapsulated Document Length keeps the true size so readers can drop it.
  const padded = pdf.length % 2 === 0 ? pdf : concat(pdf, new Uint8Array(1));
  const dataset: NaturalizedDataset = {
    ...commonAttributes(study, instance, ENCAPSULATED_PDF_STORAGE, 'DOC'),
    AcquisitionDateTime: '',
    BurnedInAnnotation: 'YES',
    DocumentTitle: lo(instance.title),
    ConceptNameCodeSequence: [],
    MIMETypeOfEncapsulatedDocument: 'application/pdf',
    EncapsulatedDocument: toArrayBuffer(padded),
    EncapsulatedDocumentLength: pdf.length,
    ...extra,
    _vrMap: { EncapsulatedDocument: 'OB' },
  };
  return writePart10(ENCAPSULATED_PDF_STORAGE, instance.sopInstanceUid, EXPLICIT_VR_LITTLE_ENDIAN, dataset);
}

/** Secondary Capture for one photograph or screenshot. */
export function wrapImage(
  study: WrapStudy,
  instance: WrapInstance,
  image: KeptJpeg | NativePixels,
): Uint8Array {
  const bitsAllocated = image.kind === 'jpeg' ? 8 : image.bitsAllocated;
  const dataset: NaturalizedDataset = {
    ...commonAttributes(study, instance, SECONDARY_CAPTURE_STORAGE, 'OT'),
    ImageType: ['DERIVED', 'SECONDARY'],
    PatientOrientation: [],
    // Type 2C: a photograph may show a paired body part; the form does not say which side.
    Laterality: '',
    // The file is shown as it is: it may carry names or dates drawn into the pixels.
    BurnedInAnnotation: 'YES',
    SamplesPerPixel: image.samplesPerPixel,
    PhotometricInterpretation: image.photometric,
    ...(image.samplesPerPixel === 3 ? { PlanarConfiguration: 0 } : {}),
    Rows: image.rows,
    Columns: image.columns,
    BitsAllocated: bitsAllocated,
    BitsStored: bitsAllocated,
    HighBit: bitsAllocated - 1,
    PixelRepresentation: 0,
    ...(image.kind === 'jpeg'
      ? {
          LossyImageCompression: '01',
          LossyImageCompressionMethod: 'ISO_10918_1',
          // One fragment per frame after an empty Basic Offset Table; dcmjs writes the items.
          PixelData: [toArrayBuffer(evenLength(image.bytes))],
          _vrMap: { PixelData: 'OB' },
        }
      : {
          LossyImageCompression: '00',
          PixelData: toArrayBuffer(evenLength(image.pixels)),
          _vrMap: { PixelData: bitsAllocated === 16 ? 'OW' : 'OB' },
        }),
  };
  const transferSyntax = image.kind === 'jpeg' ? image.transferSyntax : EXPLICIT_VR_LITTLE_ENDIAN;
  return writePart10(SECONDARY_CAPTURE_STORAGE, instance.sopInstanceUid, transferSyntax, dataset);
}

/** Patient, General Study, Patient Study, series, equipment, SC Equipment and SOP Common attributes. */
export function commonAttributes(
  study: WrapStudy,
  instance: WrapInstance,
  sopClassUid: string,
  modality: string,
): NaturalizedDataset {
  return {
    // UTF-8, so names typed into the form (e.g. MÜLLER^JÖRG) survive the round trip.
    SpecificCharacterSet: 'ISO_IR 192',
    SOPClassUID: sopClassUid,
    SOPInstanceUID: instance.sopInstanceUid,
    StudyDate: study.studyDate,
    SeriesDate: instance.contentDate,
    ContentDate: instance.contentDate,
    StudyTime: study.studyTime,
    SeriesTime: instance.contentTime,
    ContentTime: instance.contentTime,
    AccessionNumber: '',
    Modality: modality,
    ConversionType: 'WSD',
    Manufacturer: 'Imaging Inbox',
    ReferringPhysicianName: '',
    StudyDescription: lo(study.studyDescription),
    SeriesDescription: lo(instance.title),
    PatientName: study.patientName,
    PatientID: study.patientId,
    PatientBirthDate: study.patientBirthDate,
    PatientSex: study.patientSex,
    PatientAge: dicomAge(study.patientBirthDate, study.studyDate),
    StudyInstanceUID: study.studyInstanceUid,
    SeriesInstanceUID: instance.seriesInstanceUid,
    // SH, Type 2; the random tail of the study UID names the study in DICOMDIRs and on film.
    StudyID: study.studyInstanceUid.slice(-16).replace(/^\.+/, ''),
    SeriesNumber: instance.seriesNumber,
    InstanceNumber: 1,
  };
}

export function writePart10(
  sopClassUid: string,
  sopInstanceUid: string,
  transferSyntax: string,
  dataset: NaturalizedDataset,
): Uint8Array {
  const meta: NaturalizedDataset = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sopClassUid,
    MediaStorageSOPInstanceUID: sopInstanceUid,
    TransferSyntaxUID: transferSyntax,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION_NAME,
    _vrMap: { FileMetaInformationVersion: 'OB' },
  };
  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return new Uint8Array(dict.write());
}

function evenLength(bytes: Uint8Array): Uint8Array {
  return bytes.length % 2 === 0 ? bytes : concat(bytes, new Uint8Array(1));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
